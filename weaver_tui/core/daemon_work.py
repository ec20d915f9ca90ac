"""Work that only prepares the future (imports, building a client), run off the event loop in
a daemon thread that the app's exit never waits for.

``asyncio.to_thread`` and Textual's thread workers use the loop's default executor, which
``asyncio.run`` shuts down at exit by joining its threads: Ctrl+Q a moment after the launch
would wait for the agent stack's imports to finish (CPU spent for nothing), and an import that
hangs would hold the exit forever. A daemon thread is left behind instead; its result reaches
the loop only while the loop still runs, and is dropped once the awaiting task is cancelled.
Work that must finish (a write to the store) keeps using ``asyncio.to_thread``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


async def in_daemon_thread(func: Callable[[], T], name: str) -> T:
    """``func()`` in a daemon thread called ``name``: its result, or what it raised."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    context = contextvars.copy_context()

    def deliver(result: T | None, error: BaseException | None) -> None:
        if future.done():  # the awaiting task was cancelled: nobody wants it any more
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        result: T | None = None
        error: BaseException | None = None
        try:
            result = context.run(func)
        except BaseException as exc:  # noqa: BLE001 (handed to the awaiting task)
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(deliver, result, error)

    threading.Thread(target=run, name=name, daemon=True).start()
    return await future
