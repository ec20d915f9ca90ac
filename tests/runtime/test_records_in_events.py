"""A turn's events carry its records as the runtime wrote them, and the runtime alone writes a
failure: a consumer shows what arrives and never reads the store back, nor writes to it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from langgraph.graph import END, START, StateGraph

import agents.profile_registry as registry
from agents.graph import AgentState
from agents.graph.agent_node import make_agent_node
from agents.profile import Profile, TurnContext
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RecordSaved, RunError, RunFinished, TurnStarted
from agents.runtime.recorder import TurnRecorder
from storage.models import MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from storage.store import StorageError
from tests.runtime.helpers import active_leaf_id, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.research_profile.profile import PROFILE as RESEARCH
from tests.support.research_profile.tools import make_tools

pytestmark = pytest.mark.usefixtures("researcher")


def carried(event: Any) -> MessageRecord | None:
    if isinstance(event, TurnStarted):
        return event.reply
    if isinstance(event, RecordSaved | RunError):
        return event.record
    return None


async def test_every_announced_record_equals_the_stored_one_when_it_arrives(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "ReAct"}, id="call_1")]),
        Reply(deltas=["ReAct ", "interleaves ", "reasoning."], usage=(9, 3)),
    )
    user = new_turn(store, "researcher", "What is ReAct?")
    latest: dict[str, MessageRecord] = {}
    events = []
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
    ):
        events.append(event)
        record = carried(event)
        if record is not None:
            # as written: what a read of the store returns at this very moment
            assert record == store.get_message(record.id), type(event).__name__
            latest[record.id] = record

    started = events[0]
    assert isinstance(started, TurnStarted)
    assert started.reply.status is MessageStatus.STREAMING
    assert started.reply.parent_id == user.id
    assert started.reply.content == ""
    assert started.reply.meta["provider"] == "openai-compatible"
    assert "thread_id" in started.reply.meta
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "complete"
    # the last record carried for each id is the final stored record: nothing left to read
    stored = {record.id: record for record in store.list_messages(user.conversation_id)}
    assert set(latest) == set(finished.record_ids) == set(stored) - {user.id}
    assert all(latest[record_id] == stored[record_id] for record_id in latest)
    answer = latest[finished.leaf_id]
    assert answer.content == "ReAct interleaves reasoning."
    assert answer.status is MessageStatus.COMPLETE
    assert answer.meta["latency_ms"] > 0
    tool_calls = [r for r in latest.values() if r.tool_calls]
    assert tool_calls
    assert tool_calls[0].tool_calls[0]["name"] == "search_knowledge_base"
    tool = next(r for r in latest.values() if r.role == "tool")
    assert tool.tool_call_id == "call_1"
    assert tool.parent_id == tool_calls[0].id
    saved = of_type(events, RecordSaved)
    assert saved[-1].record is answer  # the closing write is announced before RunFinished


async def test_a_provider_fault_marks_the_reply_in_the_runtime_alone(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply.server_error(500))
    user = new_turn(store, "researcher", "hello")

    events = await run(runtime, user, openai_model())  # no app, no screen: only the runtime

    error = events[-1]
    assert isinstance(error, RunError)
    assert error.record is not None
    sentence = error.error.user_message
    assert error.record.status is MessageStatus.ERROR
    assert error.record.meta["error"] == sentence
    assert error.record == store.get_message(error.record.id)
    assert active_leaf_id(store, user.conversation_id) == error.record.id


async def _broken_check(state: Mapping[str, Any]) -> dict[str, Any]:
    raise KeyError("verdict")


def _answer_then_break(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    builder = StateGraph(AgentState, context_schema=TurnContext)
    builder.add_node("agent", make_agent_node(()))
    builder.add_node("check", _broken_check)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "check")
    builder.add_edge("check", END)
    return builder


async def test_a_failure_after_the_reply_closed_still_marks_that_reply(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    openai_model: Callable[..., ChatModelHandle],
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    profile = Profile(
        name="answer-then-break",
        title="Breaks after answering",
        description="a stage after the answer that raises",
        prompt_file=RESEARCH.prompt_file,
        make_tools=make_tools,
        build_graph=_answer_then_break,
    )
    monkeypatch.setitem(registry._loaded, profile.name, profile)
    fake_openai.script(Reply("An answer."))
    user = new_turn(store, profile.name, "hello")

    events = await run(runtime, user, openai_model(), profile=profile.name)

    error = events[-1]
    assert isinstance(error, RunError)
    assert error.record is not None
    assert error.record.content == "An answer."
    assert error.record.status is MessageStatus.ERROR
    assert error.record.meta["error"] == error.error.user_message
    assert error.record == store.get_message(error.record.id)


async def test_a_turn_that_cannot_start_after_its_reply_exists_marks_it(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    openai_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(self: TurnRecorder, record_id: str, meta: dict[str, Any]) -> MessageRecord:
        raise StorageError("The database is locked.")

    monkeypatch.setattr(TurnRecorder, "annotate", refuse)
    user = new_turn(store, "researcher", "hello")

    events = await run(runtime, user, openai_model())

    assert len(events) == 1
    assert isinstance(events[0], RunError)
    error = events[0]
    assert error.error.user_message == "The database is locked."
    assert error.record is not None
    assert error.record.parent_id == user.id
    assert error.record.status is MessageStatus.ERROR
    assert error.record.meta["error"] == "The database is locked."
    assert error.record == store.get_message(error.record.id)
    statuses = [r.status for r in store.list_messages(user.conversation_id)]
    assert MessageStatus.STREAMING not in statuses  # nothing left looking alive


async def test_a_turn_that_cannot_start_before_any_reply_writes_nothing(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    conversation = store.create_conversation("no-such-profile", "x")
    user = store.add_message(conversation.id, "user", "hi", None)

    events = await run(runtime, user, openai_model())

    assert len(events) == 1
    assert isinstance(events[0], RunError)
    assert events[0].record is None
    assert [r.id for r in store.list_messages(conversation.id)] == [user.id]
