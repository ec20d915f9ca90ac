"""A turn's model calls are tried again after a transient failure: the status pane says so, a
tool that ran is never run again, and cancelling the turn ends the wait (real ``ChatOpenAI``
over HTTP to the fake server; waits recorded, not slept)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from agents.providers import ChatModelHandle
from agents.providers.retried_call import PROVIDER_STATUS_NODE
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import NodeStatus, RunFinished, ToolStarted
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.retry_waits import RecordedWaits

pytestmark = pytest.mark.usefixtures("researcher")


def provider_lines(events: list[Any]) -> list[tuple[str, str]]:
    return [
        (e.text, e.state) for e in of_type(events, NodeStatus) if e.node == PROVIDER_STATUS_NODE
    ]


async def test_a_rate_limited_call_shows_the_wait_and_then_answers(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    retry_waits: RecordedWaits,
) -> None:
    fake_openai.script(Reply.rate_limited(retry_after=2), "Here is the answer.")
    user = new_turn(store, "researcher", "hello")

    events = await run(runtime, user, openai_model())

    finished = finish_of(events)
    assert finished.status == "complete"
    assert store.get_message(finished.leaf_id).content == "Here is the answer."
    assert retry_waits == [2.0]
    lines = provider_lines(events)
    assert lines[0] == ("rate limited, retrying in 2 s", "running")
    assert lines[-1][1] == "done"


async def test_a_retry_after_a_tool_round_never_runs_the_tool_again(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    retry_waits: RecordedWaits,
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "ReAct"}, id="call_r")]),
        Reply.http_error(503, "Service Unavailable"),
        Reply(content="partial", reset_after=1),  # reset before its first token
        "ReAct interleaves reasoning and acting.",
    )
    user = new_turn(store, "researcher", "ReAct?")

    events = await run(runtime, user, openai_model())

    finished = finish_of(events)
    assert finished.status == "complete"
    assert [e.call_id for e in of_type(events, ToolStarted)] == ["call_r"]
    assert len(retry_waits) == 2
    bodies = fake_openai.chat_bodies
    assert len(bodies) == 4
    for body in bodies[1:]:  # each retry sends the one tool result, never runs it again
        assert [m["tool_call_id"] for m in body["messages"] if m["role"] == "tool"] == ["call_r"]
    path = store.path_to_root(finished.leaf_id)
    assert [r.role for r in path] == ["user", "assistant", "tool", "assistant"]
    assert path[-1].content == "ReAct interleaves reasoning and acting."


async def test_cancelling_the_turn_during_the_wait_ends_it_without_another_request(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    retry_waits: RecordedWaits,
) -> None:
    retry_waits.hold = True
    fake_openai.script(Reply.rate_limited(retry_after=25), "never asked")
    user = new_turn(store, "researcher", "hello")
    cancel = asyncio.Event()
    events: list[Any] = []

    async for event in runtime.run_turn(
        conversation_id=user.conversation_id,
        user_message_id=user.id,
        model=openai_model(),
        cancel=cancel,
    ):
        events.append(event)
        if provider_lines([event]):
            cancel.set()  # what Esc does

    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "cancelled"
    assert store.get_message(finished.leaf_id).status is MessageStatus.CANCELLED
    assert retry_waits == [25.0]
    assert len(fake_openai.chat_requests) == 1
