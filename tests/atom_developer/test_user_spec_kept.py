"""A spec the user gave is the policy every draft and fix is checked against.

The class: whatever spec the model writes beside its draft or its fix (another pattern, another
kind, none), it never replaces the spec the user gave in the message, so a draft cannot pass by
moving the goalposts. The guarantee, held where a draft's or fix's spec is taken (``_policy``
in the graph): the spec validated, shown and saved is the user's, and the draft request shows
it to the model as the spec to implement.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, atom_turn
from tests.atom_developer.test_graph_provider import GOOD, answer
from tests.support.fake_openai import FakeOpenAI

USER_SPEC = "item_spec:\n  name: user_policy\n  pattern: 'regex:code=5\\d\\d'\n  kind: regex\n"
MODEL_SPECS = st.sampled_from(
    [
        "item_spec:\n  name: easier\n  pattern: 'Error'\n  kind: default\n",
        "pattern: 'x|y'\n",
        "item_spec:\n  name: user_policy\n  pattern: 'regex:.*'\n  kind: regex\n",
    ]
)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(MODEL_SPECS)
async def test_the_users_spec_is_the_one_checked_shown_and_saved(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    model_spec: str,
) -> None:
    runtime, store = atoms
    fake_openai.reset()
    fake_openai.script(answer(GOOD, model_spec))
    message = f"Extract the error code:\n```yaml\n{USER_SPEC}```\n```\n{ERROR_SAMPLE}\n```"
    turn = await atom_turn(runtime, store, message, model=openai_model())

    assert turn.artifact("yaml").strip() == USER_SPEC.strip()
    assert "user_policy" in str(fake_openai.chat_bodies[0])  # shown as the spec to implement
    assert turn.trace["valid"]
    assert fake_openai.pending == 0
