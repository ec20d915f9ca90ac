"""A fix of the user's code is valid only if it keeps every atom that code defined.

The class: the model's fix of code the user brought drops some of its atoms (the ones that
failed, say), so what is left passes. The guarantee, held by ``avalidate(keep=...)`` (the
graph passes the atoms the user's code defined to every later validation): a fix lacking any
of them fails, naming each dropped atom, and is never answered as the user's code passing.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.stub import STUB_CODE
from agents.profiles.atom_developer.validation import avalidate
from agents.profiles.atom_developer.validation.static_check import ATOM_NAMES
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, atom_turn
from tests.atom_developer.test_graph_provider import TYPE_LOCK_BROKEN
from tests.atom_developer.test_whole_draft import only
from tests.support.fake_openai import FakeOpenAI, Reply

ATOM_SETS = st.sets(st.sampled_from(ATOM_NAMES), min_size=1)


@settings(max_examples=20, deadline=None)
@given(ATOM_SETS, ATOM_SETS)
async def test_a_fix_is_valid_only_with_every_atom_it_must_keep(
    keep: set[str], defined: set[str]
) -> None:
    report = await avalidate(only(defined), keep=tuple(sorted(keep)))
    assert report.valid is keep.issubset(defined), report.errors
    for name in keep - defined:
        assert any(f"dropped {name}" in error for error in report.errors)


async def test_a_fix_that_drops_the_users_failing_atom_is_not_their_code_passing(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    dropped = only({"validate_logic", "check_existence"})
    fake_openai.script(*[Reply(content=f"```python\n{dropped}\n```\nFixed.")] * 3)
    message = f"Check my atom:\n```python\n{TYPE_LOCK_BROKEN}```\n```\n{ERROR_SAMPLE}\n```"
    turn = await atom_turn(runtime, store, message, model=openai_model())

    assert not turn.trace["valid"]
    assert turn.trace["stub"]
    assert "dropped extract_context" in turn.reply.content
    assert STUB_CODE.strip() == turn.artifact("python").strip()
