"""Cancelling a turn stops it promptly and keeps the partial reply, marked cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, TokenDelta, ToolFinished, TurnStarted
from storage.models import MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import active_leaf_id, new_turn, of_type
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")


async def _run_until(
    runtime: AgentRuntime,
    user: MessageRecord,
    model: ChatModelHandle,
    cancel: asyncio.Event,
    predicate: Callable[[list[Any]], bool],
) -> list[Any]:
    """The turn's events, cancelled once ``predicate`` holds. How fast a cancel takes
    effect is measured by a benchmark; here a turn that ignored it would never end (the
    server holds what follows until released) or would show what came after."""
    events: list[Any] = []
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=model, cancel=cancel
    ):
        events.append(event)
        if not cancel.is_set() and predicate(events):
            cancel.set()
    return events


async def test_cancel_mid_stream_keeps_the_partial_reply(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    words = [f"word{i} " for i in range(400)]
    # Held before every word but the first: still streaming when the turn is cancelled.
    fake_openai.script(Reply(deltas=words, holds=tuple(range(1, len(words)))))
    user = new_turn(store, "researcher", "talk for a long time")
    cancel = asyncio.Event()

    def fifth_token(events: list[Any]) -> bool:
        """True at the fifth token; until then each token lets the next word go, alone (words
        that arrive together become one token)."""
        if len(of_type(events, TokenDelta)) >= 5:
            return True
        if isinstance(events[-1], TokenDelta):
            fake_openai.release()
        return False

    events = await _run_until(runtime, user, openai_model(), cancel, fifth_token)

    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "cancelled"
    streamed = "".join(e.text for e in of_type(events, TokenDelta))
    reply = store.get_message(events[0].reply_id)
    assert reply.status is MessageStatus.CANCELLED
    assert reply.content == streamed
    assert 5 <= len(of_type(events, TokenDelta)) < len(words)
    assert finished.leaf_id == reply.id == active_leaf_id(store, user.conversation_id)


async def test_cancel_while_the_provider_is_silent(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply.slow_first_byte(30.0))
    user = new_turn(store, "researcher", "hello?")
    cancel = asyncio.Event()

    async def cancel_once_asked() -> None:
        # the request is out, its answer not yet (the server is a thread: nothing to await)
        while not fake_openai.chat_requests:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        cancel.set()

    canceller = asyncio.create_task(cancel_once_asked())
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=user.conversation_id,
            user_message_id=user.id,
            model=openai_model(timeout=60),
            cancel=cancel,
        )
    ]
    await canceller

    assert not of_type(events, TokenDelta)  # ended before the answer (30 s later) came
    assert isinstance(events[0], TurnStarted)
    assert isinstance(events[-1], RunFinished)
    assert events[-1].status == "cancelled"
    reply = store.get_message(events[0].reply_id)
    assert reply.status is MessageStatus.CANCELLED
    assert reply.content == ""


async def test_cancel_after_a_tool_round_ends_on_a_cancelled_reply(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "RRF"}, id="call_x")]),
        Reply.slow_first_byte(30.0),
    )
    user = new_turn(store, "researcher", "What is RRF?")
    cancel = asyncio.Event()

    events = await _run_until(
        runtime, user, openai_model(timeout=60), cancel, lambda ev: bool(of_type(ev, ToolFinished))
    )

    assert events[-1].status == "cancelled"
    path = store.path_to_root(events[-1].leaf_id)
    assert [(r.role, r.status) for r in path] == [
        ("user", MessageStatus.COMPLETE),
        ("assistant", MessageStatus.COMPLETE),
        ("tool", MessageStatus.COMPLETE),
        ("assistant", MessageStatus.CANCELLED),
    ]


async def test_a_consumer_that_stops_listening_leaves_a_cancelled_reply(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply(deltas=[f"t{i} " for i in range(200)], holds=(1,)))
    user = new_turn(store, "researcher", "go")
    stream = runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
    )
    reply_id = None
    async for event in stream:
        if isinstance(event, TurnStarted):
            reply_id = event.reply_id
        if isinstance(event, TokenDelta):
            break
    await stream.aclose()

    assert reply_id is not None
    reply = store.get_message(reply_id)
    assert reply.status is MessageStatus.CANCELLED
    assert reply.content.startswith("t0")
