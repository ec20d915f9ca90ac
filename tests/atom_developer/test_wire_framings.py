"""atom-developer on a real ``ChatOpenAI`` client over HTTP, against the local server framing
its structured check as Gemini's endpoint does (no ``index``, empty ids, ``finish_reason:
stop``): the model's "asks for an atom" is read and the draft is written."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.profiles.atom_developer.graph import GUIDE
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import PROFILE
from tests.atom_developer.test_graph_provider import GOOD, answer
from tests.atom_developer.test_request_on_provider import RUSSIAN, turn
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


async def test_a_check_framed_without_index_or_ids_is_read_and_the_draft_written(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(
        Reply.calls_without_index(ToolCall("AtomRequestCheck", {"asks_for_atom": True})),
        answer(GOOD),
    )
    conversation = store.create_conversation(PROFILE, "atoms")

    reply = await turn(runtime, store, conversation.id, RUSSIAN, openai_model())

    assert len(fake_openai.chat_requests) == 2  # the check once, then the draft
    assert reply.content != GUIDE
    assert "```python" in reply.content
