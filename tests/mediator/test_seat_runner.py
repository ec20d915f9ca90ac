"""The host's seat runner: messages sent at seats are stored through the runtime and answered
one at a time, oldest first, on the real runtime and store; nothing is lost when the host
stops mid-turn."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.seat_queue import SeatQueueRunner
from storage.change_signal import StoreChanges
from storage.models import Conversation
from storage.seats import SeatBook
from tests.support.fake_openai import Reply, ToolCall

WAIT_S = 60


@pytest.fixture
def seats(store: Any) -> Iterator[SeatBook]:
    book = SeatBook(store.path)
    yield book
    book.close()


def _contents(store: Any, space: Conversation, viewer: str | None) -> list[str]:
    leaf = store.active_leaf(space.id)
    return [r.content for r in store.path_to_root(leaf.id, viewer)]


async def test_seat_messages_are_answered_in_order_with_their_sender_and_audience(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("reply_privately", {"recipient": "Sam", "content": "Noted, Sam."}, id="p")
            ]
        ),
        Reply("Answered Sam."),
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": "Welcome both."}, id="s")]),
        Reply("Posted."),
    )
    seats.enqueue(space.id, "Sam", "I hid a debt from Alex.", shared=False)
    seats.enqueue(space.id, "Alex", "Hello everyone.", shared=True)
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    assert await runner.answer_waiting() == 2
    assert seats.queued(space.id) == []

    users = [r for r in store.list_messages(space.id) if r.role == "user"]
    assert [(u.meta["sender"], u.meta["visibility"]) for u in users] == [
        ("Sam", "Sam"),
        ("Alex", "shared"),
    ]
    assert users[1].parent_id is not None  # the second continues below the first turn
    alex_reads = _contents(store, space, "Alex")
    assert "Hello everyone." in alex_reads
    assert not any("debt" in text or "Noted, Sam" in text for text in alex_reads)
    assert "I hid a debt from Alex." in _contents(store, space, "Sam")


async def test_the_runner_wakes_on_a_message_another_process_enqueues(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
) -> None:
    fake_openai.script(Reply("Hello Alex."))
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    changes = StoreChanges(store.path)
    stop = asyncio.Event()
    task = asyncio.create_task(runner.run(changes, stop))
    seat_side = SeatBook(store.path)  # a seat's own connection
    try:
        seat_side.enqueue(space.id, "Alex", "Hi there.", shared=True)

        async def answered() -> None:
            # another process answers: nothing here to wait on but the store
            while seat_side.queued(space.id) or store.active_leaf(space.id) is None:  # noqa: ASYNC110
                await asyncio.sleep(0.02)

        await asyncio.wait_for(answered(), WAIT_S)
        assert "Hi there." in _contents(store, space, "Sam")
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT_S)
        changes.close()
        seat_side.close()


async def test_a_message_stored_before_the_host_stopped_is_not_sent_twice(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    seats: SeatBook,
    fake_openai: Any,
    openai_model: Any,
) -> None:
    first = seats.enqueue(space.id, "Sam", "Already stored.", shared=True)
    record = store.add_message(space.id, "user", "Already stored.", None, meta={"sender": "Sam"})
    seats.mark_answering(first, record.id)  # the host stopped here, mid-turn
    seats.enqueue(space.id, "Alex", "Still waiting.", shared=True)
    fake_openai.script(Reply("Thanks Alex."))
    runner = SeatQueueRunner(runtime, seats, space.id, openai_model())
    assert await runner.answer_waiting() == 2
    users = [r.content for r in store.list_messages(space.id) if r.role == "user"]
    assert users == ["Already stored.", "Still waiting."]
