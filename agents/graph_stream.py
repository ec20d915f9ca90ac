"""Runs a compiled graph's stream in its own task so a turn can be cancelled at once.

Iterating a LangGraph stream directly cannot be interrupted while the provider is silent;
here the stream feeds a queue from a task, and a watcher on the cancel event wakes the reader
and cancels that task, so cancellation takes effect within milliseconds of the request.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Any, Literal

from agents.trace import trace_id_var

STREAM_MODES = ["messages", "updates", "custom"]
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
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        task_context = contextvars.copy_context()
        task_context.run(trace_id_var.set, trace_id)  # the turn's log lines carry its trace id
        self._producer = asyncio.create_task(
            self._produce(graph, graph_input, config, context), context=task_context
        )
        self._watcher = asyncio.create_task(self._watch(cancel)) if cancel is not None else None

    async def _produce(self, graph: Any, graph_input: Any, config: Any, context: Any) -> None:
        try:
            async for item in graph.astream(
                graph_input, config, context=context, stream_mode=STREAM_MODES
            ):
                self._queue.put_nowait(item)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._queue.put_nowait(_Failed(exc))
            return
        self._queue.put_nowait(_DONE)

    async def _watch(self, cancel: asyncio.Event) -> None:
        await cancel.wait()
        self._queue.put_nowait(_CANCEL)

    async def __aiter__(self) -> AsyncIterator[tuple[str, Any]]:
        while True:
            item = await self._queue.get()
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
        if self._watcher is not None:
            self._watcher.cancel()
        if not self._producer.done():
            self._producer.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._producer
