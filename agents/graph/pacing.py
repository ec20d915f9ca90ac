"""Paces a streaming model call: it neither holds the event loop nor outruns the turn's reader.

A model call streams inside a LangGraph node task. Two things go wrong there when the provider
is fast. The ``openai`` SDK turns one network read (up to 64 KB: hundreds of chunks) into
chunks without ever suspending, and the callbacks that hand each token to LangGraph's stream do
not suspend either, so a whole read ran as one step of the event loop while the app's keys and
frames waited behind it. And LangGraph's own stream queue is unbounded: a node that keeps
producing while the turn's reader is behind piles up items (a message chunk of a few KB each).

:class:`StreamPacer` fixes both from inside the chunk loop: :meth:`StreamPacer.tick` hands the
loop back once the call has held it for :data:`YIELD_EVERY_S`, and waits while the reader of
the turn (:class:`agents.runtime.graph_stream.GraphStream`, which publishes its state in
:data:`reader_room`) is a full queue behind. Outside a ``GraphStream`` only the first applies.
"""

from __future__ import annotations

import asyncio
import time
from contextvars import ContextVar

YIELD_EVERY_S = 0.012
"""The longest a streaming call keeps the event loop before ``await asyncio.sleep(0)``.

About one frame's cost: at 500 tokens/s the call rarely holds the loop that long anyway (it
waits on the socket between chunks); at full speed each hand-back runs the app's pending work,
and measured in the whole app a 4 ms period cost ~10% more CPU on a 20,000-token reply than
12 ms (app / runtime alone 1.31x against 1.19x) for no better key latency."""

reader_room: ContextVar[asyncio.Event | None] = ContextVar("weaver_reader_room", default=None)
"""Set (in the graph task's context) to an event that is clear while the turn's reader is a
full queue behind; node tasks copy the context, so model calls inside the graph see it."""


class StreamPacer:
    """One per streaming call; ``await pacer.tick()`` after each chunk."""

    __slots__ = ("_last", "_room")

    def __init__(self) -> None:
        self._room = reader_room.get()
        self._last = time.perf_counter()

    async def tick(self) -> None:
        """Cheap (a clock read) unless the loop is due back or the reader is behind."""
        room = self._room
        if room is not None and not room.is_set():
            await room.wait()  # backpressure: the reader catches up first
        elif time.perf_counter() - self._last < YIELD_EVERY_S:
            return
        else:
            await asyncio.sleep(0)  # let the loop run: keys, frames, the stream's reader
        self._last = time.perf_counter()


__all__ = ["YIELD_EVERY_S", "StreamPacer", "reader_room"]
