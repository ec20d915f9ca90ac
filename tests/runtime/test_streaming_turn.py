"""A turn through real ``ChatOpenAI`` over HTTP to the fake server: streamed, stored, measured."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RecordSaved, RunFinished, TokenDelta, TurnStarted, Usage
from storage.models import MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import active_leaf_id, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.usefixtures("researcher")


async def test_reply_streams_as_token_deltas_and_is_stored(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply(deltas=["The ", "answer ", "is ", "42."], usage=(12, 4)))
    user = new_turn(store, "researcher", "What is the answer?")

    events = await run(runtime, user, openai_model())

    started = events[0]
    assert isinstance(started, TurnStarted)
    assert (started.provider, started.model, started.profile) == (
        "openai-compatible",
        "fake-model",
        "researcher",
    )
    assert "".join(e.text for e in of_type(events, TokenDelta)) == "The answer is 42."
    assert {e.message_id for e in of_type(events, TokenDelta)} == {started.reply_id}
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "complete"
    assert finished.leaf_id == started.reply_id
    assert finished.usage == Usage(12, 4, 16)

    reply = store.get_message(started.reply_id)
    assert reply.parent_id == user.id
    assert reply.content == "The answer is 42."
    assert reply.status is MessageStatus.COMPLETE
    assert reply.meta["provider"] == "openai-compatible"
    assert reply.meta["model"] == "fake-model"
    assert reply.meta["usage"] == {"input_tokens": 12, "output_tokens": 4, "total_tokens": 16}
    assert reply.meta["latency_ms"] > 0
    assert active_leaf_id(store, user.conversation_id) == reply.id


async def test_the_reply_record_exists_before_the_first_token(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply("Hello there"))
    user = new_turn(store, "researcher", "hi")
    seen_status = None
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
    ):
        if isinstance(event, TurnStarted):
            seen_status = store.get_message(event.reply_id).status
    assert seen_status is MessageStatus.STREAMING


async def test_system_prompt_and_tools_are_sent(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply("ok"))
    user = new_turn(store, "researcher", "find notes on BM25")

    await run(runtime, user, openai_model())

    body = fake_openai.last_body
    assert body["messages"][0]["role"] == "system"
    assert "research" in body["messages"][0]["content"].lower()
    assert [t["function"]["name"] for t in body["tools"]] == ["search_knowledge_base"]
    assert body["messages"][-1] == {"role": "user", "content": "find notes on BM25"}


async def test_regenerate_makes_a_sibling_version(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply("First answer."), Reply("Second answer."))
    user = new_turn(store, "researcher", "Tell me something")
    model = openai_model()

    first = of_type(await run(runtime, user, model), RunFinished)[0]
    second = of_type(await run(runtime, user, model), RunFinished)[0]

    versions = store.siblings(second.leaf_id)
    assert [(m.content, m.version) for m in versions] == [
        ("First answer.", 1),
        ("Second answer.", 2),
    ]
    assert first.leaf_id != second.leaf_id
    assert active_leaf_id(store, user.conversation_id) == second.leaf_id
    # the second request saw only the user message, not the first answer
    assert fake_openai.last_body["messages"][-1]["content"] == "Tell me something"


async def test_only_the_last_n_records_are_sent(
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    from agents.runtime.agent_runtime import AgentRuntime

    conversation = store.create_conversation("researcher", "long")
    parent: MessageRecord | None = None
    for i in range(10):
        parent = store.add_message(
            conversation.id, "user", f"question {i}", parent.id if parent else None
        )
        parent = store.add_message(conversation.id, "assistant", f"answer {i}", parent.id)
    assert parent is not None
    user = store.add_message(conversation.id, "user", "the newest question", parent.id)
    fake_openai.script(Reply("ok"))
    runtime = AgentRuntime(store, checkpointer, context_messages=5)

    await run(runtime, user, openai_model())

    sent = fake_openai.last_body["messages"]
    assert [m["content"] for m in sent[1:]] == [
        "question 8",
        "answer 8",
        "question 9",
        "answer 9",
        "the newest question",
    ]


async def test_records_saved_events_name_every_record(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply("done"))
    user = new_turn(store, "researcher", "q")
    events = await run(runtime, user, openai_model())
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    saved = {e.message_id for e in of_type(events, RecordSaved)}
    assert isinstance(events[0], TurnStarted)
    assert set(finished.record_ids) <= saved | {events[0].reply_id}
