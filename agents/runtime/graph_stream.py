"""Runs a compiled graph's stream in its own task so a turn can be cancelled at once.

Iterating a LangGraph stream directly cannot be interrupted while the provider is silent;
here the stream feeds a queue from a task, and a watcher on the cancel event wakes the reader
and cancels that task, so cancellation takes effect within milliseconds of the request.

The queue is bounded (:data:`QUEUE_SIZE` items) so a reader that falls behind (the app's event
loop busy drawing) slows the producer instead of growing memory (each token's item holds a
message chunk of a few KB). LangGraph runs the model call in a task of its own that feeds an
unbounded queue, so a full queue here also clears :data:`agents.graph.pacing.reader_room`: the
streaming model call then waits between chunks until the reader has taken half the queue, and
stops reading the provider's socket meanwhile.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Any, Literal

from agents.graph.pacing import reader_room
from agents.runtime.trace import trace_id_var

STREAM_MODES = ["messages", "updates", "custom"]
QUEUE_SIZE = 256
"""Stream items waiting for the reader at most; the producer waits beyond that."""
_DONE, _CANCEL = object(), object()


class _Failed:
    def __init__(self, exc: Exception) -> None:
        self.exc = exc


class GraphStream:
    """``async for mode, payload in GraphStream(...)``; then read :attr:`outcome`.

    ``outcome`` is ``"complete"``, ``"cancelled"`` or ``"error"`` (with :attr:`error`) once the
    iteration ends, and stays ``None`` if the reader stopped early. Always ``await stop()``.
    """

    def __init__(
        self,
        graph: Any,
        graph_input: Any,
        *,
        config: dict[str, Any],
        context: Any,
        cancel: asyncio.Event | None,
        trace_id: str,
    ) -> None:
        self.outcome: Literal["complete", "cancelled", "error"] | None = None
        self.error: Exception | None = None
        self._cancel = cancel
        self._queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=QUEUE_SIZE)
        self._room = asyncio.Event()
        """Clear while the queue is full; set again once the reader has taken half of it."""
        self._room.set()
        task_context = contextvars.copy_context()
        task_context.run(trace_id_var.set, trace_id)  # the turn's log lines carry its trace id
        task_context.run(reader_room.set, self._room)  # the model call waits on it
        self._producer = asyncio.create_task(
            self._produce(graph, graph_input, config, context), context=task_context
        )
        self._watcher = asyncio.create_task(self._watch(cancel)) if cancel is not None else None

    async def _produce(self, graph: Any, graph_input: Any, config: Any, context: Any) -> None:
        try:
            async for item in graph.astream(
                graph_input, config, context=context, stream_mode=STREAM_MODES
            ):
                await self._queue.put(item)  # waits while the reader is QUEUE_SIZE behind
                if self._queue.full():
                    self._room.clear()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 (any failure of the graph task is handed to the reader)
            await self._queue.put(_Failed(exc))
            return
        await self._queue.put(_DONE)

    async def _watch(self, cancel: asyncio.Event) -> None:
        await cancel.wait()
        # Wake a reader waiting on an empty queue. A full queue needs no wake-up: the reader
        # is not waiting, and it checks the cancel event after every item it takes.
        with suppress(asyncio.QueueFull):
            self._queue.put_nowait(_CANCEL)

    async def __aiter__(self) -> AsyncIterator[tuple[str, Any]]:
        while True:
            item = await self._queue.get()
            if not self._room.is_set() and self._queue.qsize() <= QUEUE_SIZE // 2:
                self._room.set()
            if self._cancel is not None and self._cancel.is_set():
                self.outcome = "cancelled"
                return
            if item is _DONE:
                self.outcome = "complete"
                return
            if isinstance(item, _Failed):
                self.outcome, self.error = "error", item.exc
                return
            yield item

    async def stop(self) -> None:
        """Cancel the graph task (if still running) and the watcher."""
        self._room.set()
        if self._watcher is not None:
            self._watcher.cancel()
        if not self._producer.done():
            self._producer.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._producer
