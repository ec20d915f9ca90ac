"""Warm-up work in a daemon thread: its result or error reaches the task that awaits it, and
an event loop that ends meanwhile neither waits for it nor fails when it finishes later."""

from __future__ import annotations

import asyncio
import threading

import pytest

from weaver_tui.core.daemon_work import in_daemon_thread

BOUND_S = 30


def test_the_result_and_the_error_reach_the_awaiting_task() -> None:
    def fail() -> None:
        raise LookupError("no such module")

    async def main() -> str:
        with pytest.raises(LookupError, match="no such module"):
            await in_daemon_thread(fail, "test-fail")
        return await in_daemon_thread(lambda: threading.current_thread().name, "test-name")

    assert asyncio.run(main()) == "test-name"


def test_the_loop_ends_without_waiting_and_the_late_result_is_dropped_quietly() -> None:
    started, release = threading.Event(), threading.Event()
    errors: list[BaseException | None] = []

    def slow_import() -> str:
        started.set()
        release.wait(BOUND_S)
        return "imported"

    async def main() -> None:
        task = asyncio.create_task(in_daemon_thread(slow_import, "test-slow-import"))
        await asyncio.to_thread(started.wait, BOUND_S)
        task.cancel()  # the app quits: its warm-up worker is cancelled

    previous_hook = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value)
    try:
        asyncio.run(main())  # joins the default executor's threads, as the app's exit does
        assert not release.is_set()
        [thread] = [t for t in threading.enumerate() if t.name == "test-slow-import"]
        assert thread.daemon
        release.set()
        thread.join(BOUND_S)
    finally:
        release.set()
        threading.excepthook = previous_hook
    assert not thread.is_alive()
    assert errors == []
