"""atom-developer's drafts on a real ``ChatOpenAI`` client over HTTP, against the local server
playing a model whose draft or fix is refused, filtered, cut at the output limit or empty: the
turn says so in one sentence, marked, instead of answering the safe stub as if the drafts had
merely failed validation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agents.profiles.atom_developer.graph import GUIDE
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import PROFILE
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, TYPE_LOCK_BROKEN, answer
from tests.support.fake_openai import FakeOpenAI, Reply

MARKED = [
    (Reply(refusal="I can't help with that."), "refused"),
    (Reply("```python\ndef extract_context(", finish_reason="content_filter"), "filtered"),
    (Reply("```python\ndef extract_context(", finish_reason="length"), "truncated"),
    (Reply(""), "empty"),
]


async def run(
    runtime: AgentRuntime, store: SqliteConversationStore, handle: ChatModelHandle
) -> list[Any]:
    conversation = store.create_conversation(PROFILE, "atoms")
    user = store.add_message(conversation.id, "user", REQUEST, None)
    return [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=handle
        )
    ]


def check_marked(
    events: list[Any], store: SqliteConversationStore, reply: Reply, outcome: str
) -> None:
    assert isinstance(events[-1], ev.RunError), events[-1]
    assert not [e for e in events if isinstance(e, ev.NodeStatus) and e.node == "fallback"]
    record = events[-1].record
    assert record is not None
    stored = store.get_message(record.id)
    assert stored.status is MessageStatus.ERROR
    assert stored.meta["outcome"] == outcome
    assert stored.meta["error"] == events[-1].error.user_message
    assert "stub" not in stored.content.lower()
    if reply.refusal:
        assert stored.content == reply.refusal


@pytest.mark.parametrize(("reply", "outcome"), MARKED)
async def test_a_draft_refused_filtered_cut_or_empty_is_said_not_stubbed(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    reply: Reply,
    outcome: str,
) -> None:
    runtime, store = atoms
    fake_openai.script(reply)

    events = await run(runtime, store, openai_model())

    assert len(fake_openai.chat_requests) == 1
    check_marked(events, store, reply, outcome)


@pytest.mark.parametrize(("reply", "outcome"), MARKED)
async def test_a_fix_refused_filtered_cut_or_empty_is_said_not_stubbed(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    reply: Reply,
    outcome: str,
) -> None:
    runtime, store = atoms
    fake_openai.script(answer(TYPE_LOCK_BROKEN), reply)

    events = await run(runtime, store, openai_model())

    assert len(fake_openai.chat_requests) == 2
    check_marked(events, store, reply, outcome)


async def test_a_whole_draft_still_passes(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(answer(GOOD))

    events = await run(runtime, store, openai_model())

    assert isinstance(events[-1], ev.RunFinished), events[-1]


@pytest.mark.parametrize(("reply", "outcome"), MARKED[:3])
async def test_a_request_check_refused_filtered_or_cut_is_said_not_guided(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    reply: Reply,
    outcome: str,
) -> None:
    runtime, store = atoms
    fake_openai.script(reply)
    conversation = store.create_conversation(PROFILE, "atoms")
    user = store.add_message(conversation.id, "user", "Pull the error codes out, please", None)

    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=openai_model()
        )
    ]

    assert len(fake_openai.chat_requests) == 1
    check_marked(events, store, reply, outcome)
    end = events[-1]
    assert isinstance(end, ev.RunError)
    assert end.record is not None
    assert GUIDE not in store.get_message(end.record.id).content
