"""The offline demo tells atom work from the branch's structure, never from a message's words.

Whatever a message without a sample or code says (log words included), the demo answers "no
atom work" unless the branch already holds atom work (a draft, or a message with a sample):
then the message is a follow-up. A real model reads the words; the demo cannot, and says what
it needs instead (the profile's guide).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from agents.offline import OfflineTurn
from agents.profiles.atom_developer.offline import read_request
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import atom_turn

_WORDS = st.lists(
    st.sampled_from(
        ["extract", "the", "error", "code", "from", "logs", "parse", "lines", "atom", "match",
         "status", "when", "it", "is", "500", "please", "regex", "field", "hello", "ip"]
    ),
    min_size=1,
    max_size=12,
).map(" ".join)  # fmt: skip
_TOOL = {"AtomRequestCheck": {"type": "object", "properties": {"asks_for_atom": {}}}}


def _asks(messages: list[AnyMessage]) -> Any:
    turn = OfflineTurn(
        node="read_request",
        state={"messages": messages},
        messages=messages,
        tools=_TOOL,
        tool_choice="AtomRequestCheck",
    )
    reply = read_request(turn)
    assert len(reply.calls) == 1
    return reply.calls[0].args["asks_for_atom"]


@settings(max_examples=100, deadline=None)
@given(words=_WORDS, before=st.lists(_WORDS, max_size=3))
def test_words_alone_never_make_atom_work(words: str, before: list[str]) -> None:
    earlier: list[AnyMessage] = []
    for text in before:  # earlier chat without a sample or a draft
        earlier += [HumanMessage(text), AIMessage("Tell me what to pull out of a log.")]
    assert _asks([*earlier, HumanMessage(words)]) is False


@settings(max_examples=50, deadline=None)
@given(words=_WORDS)
def test_after_a_draft_on_the_branch_any_message_is_a_follow_up(words: str) -> None:
    draft = AIMessage("```python\ndef extract_context(text, source_file):\n    return []\n```")
    sample = HumanMessage("Extract the code\n```\nERROR code=500\n```")
    assert _asks([sample, draft, HumanMessage(words)]) is True


async def test_a_request_in_log_words_without_a_sample_gets_the_guide_offline(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = atoms
    turn = await atom_turn(runtime, store, "Extract the error code from the log lines")
    assert "artifacts" not in turn.reply.meta
    assert "def extract_context" not in turn.reply.content
    assert not any(stage.startswith("draft:") for stage in turn.stages)
