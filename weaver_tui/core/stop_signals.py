"""SIGTERM and SIGHUP end the app as Ctrl+Q does, and always end it.

A kill or a shutdown sends SIGTERM; a closed terminal window or ``tmux kill-server`` sends
SIGHUP. Either one quits the app through its event loop, so the reply being written is
cancelled and kept (marked as cancelled by the runtime) and the branch is remembered. Whatever
then holds the process up (a terminal that no longer reads, a worker thread waiting on the
network), a watchdog started by the signal gives up on the terminal after
:data:`ABANDON_OUTPUT_S` and ends the process after :data:`EXIT_AFTER_S`; the database has
committed every row by then, and the operating system releases the process's file locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType

logger = logging.getLogger(__name__)

STOP_SIGNAL_NAMES = ("SIGTERM", "SIGHUP")

ABANDON_OUTPUT_S = 0.5
"""After a stop signal, how long the terminal gets to take the app's last output."""

EXIT_AFTER_S = 2.0
"""After a stop signal, the latest the process ends, however its shutdown is going."""

_Handler = Callable[[int, FrameType | None], object] | int | None


class StopSignals:
    """Route SIGTERM and SIGHUP to ``quit_app(signum)`` on ``loop``, with a watchdog.

    ``abandon_output`` is called from the watchdog's thread (it must only set a flag) when the
    terminal has not taken the last output in time.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        quit_app: Callable[[int], object],
        abandon_output: Callable[[], object],
    ) -> None:
        self._loop = loop
        self._quit_app = quit_app
        self._abandon_output = abandon_output
        self._previous: dict[int, _Handler] = {}
        self._watchdog: threading.Thread | None = None

    def install(self) -> None:
        """Handle the stop signals (from the main thread; elsewhere this does nothing)."""
        if threading.current_thread() is not threading.main_thread():
            return
        for name in STOP_SIGNAL_NAMES:
            number = getattr(signal, name, None)
            if number is not None:
                self._previous[number] = signal.signal(number, self._received)

    def uninstall(self) -> None:
        """Put the previous handlers back (the app has ended; a watchdog already started
        keeps running, so a stuck interpreter shutdown still ends)."""
        for number, previous in self._previous.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(number, previous if previous is not None else signal.SIG_DFL)
        self._previous.clear()

    def _received(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler: runs in the main thread even while the event loop is stuck,
        so the watchdog starts whatever the loop is doing."""
        if self._watchdog is None:
            self._watchdog = threading.Thread(
                target=self._end_in_time, args=(signum,), name="stop-watchdog", daemon=True
            )
            self._watchdog.start()
        with contextlib.suppress(RuntimeError):  # the loop has closed: the watchdog ends it
            self._loop.call_soon_threadsafe(self._quit_app, signum)

    def _end_in_time(self, signum: int) -> None:
        waiting = threading.Event()
        waiting.wait(ABANDON_OUTPUT_S)
        self._abandon_output()
        waiting.wait(EXIT_AFTER_S - ABANDON_OUTPUT_S)
        logger.warning(
            "the app did not end after a stop signal; ending the process",
            extra={"signal": signal.Signals(signum).name},
        )
        for handler in logging.getLogger().handlers:
            with contextlib.suppress(Exception):
                handler.flush()
        os._exit(128 + signum)
