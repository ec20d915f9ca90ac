"""A streaming turn shares the event loop and is held back by a slow reader.

The pacer hands the loop back between chunks (so the app's keys and frames run while a fast
provider streams), and the graph stream is bounded: a reader that does not keep up makes the
producer, and through :data:`agents.graph.pacing.reader_room` the model call itself, wait
instead of piling up items. Nothing here is timed: the pacing period is set to 0 (hand back
after every chunk) or to an hour (never), and the backpressure is observed on queue sizes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

import agents.graph.folded_call as folded_call
import agents.graph.pacing as pacing
import agents.runtime.graph_stream as graph_stream
from agents.graph.pacing import StreamPacer, reader_room
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, TokenDelta
from agents.runtime.graph_stream import GraphStream
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, one_chunk_per_event
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.usefixtures("researcher")


class _Ticker:
    """A task that counts how often the event loop lets it run."""

    def __init__(self) -> None:
        self.ticks = 0
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            self.ticks += 1
            await asyncio.sleep(0)

    async def stop(self) -> None:
        self._task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self._task


async def test_the_pacer_hands_the_loop_back_once_its_period_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticker = _Ticker()
    await asyncio.sleep(0)
    monkeypatch.setattr(pacing, "YIELD_EVERY_S", 3600.0)
    pacer, before = StreamPacer(), ticker.ticks
    for _ in range(50):
        await pacer.tick()
    assert ticker.ticks == before  # within its period: no suspension at all

    monkeypatch.setattr(pacing, "YIELD_EVERY_S", 0.0)
    pacer, before = StreamPacer(), ticker.ticks
    for _ in range(50):
        await pacer.tick()
    assert ticker.ticks - before >= 50  # period used up after every chunk: the loop ran each time
    await ticker.stop()


async def test_the_pacer_waits_while_the_reader_is_behind() -> None:
    room = asyncio.Event()
    token = reader_room.set(room)
    try:
        pacer = StreamPacer()
    finally:
        reader_room.reset(token)
    waiting = asyncio.create_task(pacer.tick())
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waiting.done()
    room.set()
    await asyncio.wait_for(waiting, 5)


class _FastGraph:
    """A stand-in for a compiled graph whose stream never pauses; it records, for every item,
    whether the reader room (as a model call inside the graph would see it) was open."""

    def __init__(self, items: int) -> None:
        self.items = items
        self.produced = 0
        self.room_states: list[bool] = []

    async def astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[tuple[str, Any]]:
        room = reader_room.get()
        for i in range(self.items):
            self.room_states.append(room is not None and room.is_set())
            self.produced += 1
            yield ("custom", {"n": i})


async def test_a_reader_that_falls_behind_holds_the_producer_at_the_queue_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(graph_stream, "QUEUE_SIZE", 8)
    graph = _FastGraph(100)
    stream = GraphStream(graph, {}, config={}, context=None, cancel=None, trace_id="t")
    for _ in range(50):  # the reader is away; the producer runs as far as it may
        await asyncio.sleep(0)
    assert graph.produced == 9  # 8 queued, the 9th waiting at ``put``
    assert graph.room_states[:8] == [True] * 8
    assert graph.room_states[8] is False  # the full queue closed the room for the model call

    received = [payload["n"] async for _, payload in stream]
    await stream.stop()
    assert received == list(range(100))  # nothing lost or reordered by the waiting
    assert stream.outcome == "complete"
    assert True in graph.room_states[9:]  # reopened once the reader had caught up


async def test_cancel_reaches_a_reader_while_the_queue_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(graph_stream, "QUEUE_SIZE", 4)
    cancel = asyncio.Event()
    stream = GraphStream(_FastGraph(50), {}, config={}, context=None, cancel=cancel, trace_id="t")
    for _ in range(20):
        await asyncio.sleep(0)
    cancel.set()  # the watcher cannot add to the full queue; the reader must still stop
    for _ in range(5):
        await asyncio.sleep(0)
    received = [item async for item in stream]
    await stream.stop()
    assert received == []
    assert stream.outcome == "cancelled"


async def test_a_fast_reply_read_slowly_arrives_whole_and_in_order(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real path (HTTP, SDK, folded call, LangGraph) under constant backpressure, from a
    provider whose every event is a chunk of its own (events that can merge come as few)."""
    one_chunk_per_event(monkeypatch)
    monkeypatch.setattr(graph_stream, "QUEUE_SIZE", 4)
    monkeypatch.setattr(pacing, "YIELD_EVERY_S", 0.0)
    words = [f"w{i} " for i in range(300)]
    fake_openai.script(Reply(deltas=words))  # as fast as the socket takes it
    user = new_turn(store, "researcher", "say a lot")
    waits = 0

    class CountingPacer(StreamPacer):
        async def tick(self) -> None:
            nonlocal waits
            if self._room is not None and not self._room.is_set():
                waits += 1
            await super().tick()

    monkeypatch.setattr(folded_call, "StreamPacer", CountingPacer)
    ticker = _Ticker()
    events = []
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
    ):
        events.append(event)
        for _ in range(3):  # a reader slower than the producer
            await asyncio.sleep(0)
    await ticker.stop()

    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "complete"
    assert "".join(e.text for e in of_type(events, TokenDelta)) == "".join(words)
    reply = store.get_message(finished.leaf_id)
    assert reply.content == "".join(words)
    assert reply.status is MessageStatus.COMPLETE
    assert waits > 0  # the model call did wait for the reader
    assert ticker.ticks >= len(words)  # and the loop ran between chunks
