"""Terminal output that never holds the app hostage: Textual's Linux driver with a writer
that survives a terminal that has gone away.

Textual writes to the terminal from a thread fed by a bounded queue. When the terminal closes
(a closed window, ``tmux kill-server``), a write fails with ``EIO``, that thread dies, and the
queue fills: the next write on the event loop, and the shutdown's final ``stop``, wait on it
forever, so the app can neither finish its turn nor exit. :class:`TerminalWriter` notices
the failure and from then on drops what it is given; its queue is always emptied, every wait on
it is bounded, and :meth:`TerminalWriter.abandon` (called by the stop-signal watchdog) frees
the app from a terminal that is alive but has stopped reading: output that finds the queue
full is dropped instead of waited for. Once the app is leaving (:meth:`TerminalWriter.leave`,
when it exits however it was asked to), the terminal gets :data:`STOP_WAIT_S` to take the
last output, then it is abandoned the same way: a quit never waits on a terminal that does
not read.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from queue import Empty, Full
from typing import IO

from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import LinuxDriver

from weaver_tui.core.terminal_hangup import HangupWatch

logger = logging.getLogger(__name__)

STOP_WAIT_S = 0.5
"""How long the shutdown waits for the last output to reach the terminal."""

_PUT_RETRY_S = 0.25
"""A full queue is retried at this pace, so an abandoned writer releases its caller."""


class TerminalWriter(WriterThread):
    """Textual's writer thread, bounded: a failed write marks the terminal gone (the rest is
    dropped), and stopping waits at most :data:`STOP_WAIT_S`."""

    def __init__(self, file: IO[str]) -> None:
        super().__init__(file)
        self.gone = threading.Event()
        """Set once the terminal cannot be written to: all output is dropped from then on."""
        self.abandoned = threading.Event()
        """Set when nobody should wait for the terminal any more: output that does not fit
        in the queue is dropped."""
        self._leave_by: float | None = None
        """Once the app is leaving: the monotonic time after which the terminal is
        abandoned."""

    def write(self, text: str) -> None:
        while not self.gone.is_set():
            abandoned = self.abandoned.is_set()
            try:
                self._queue.put(text, block=not abandoned, timeout=_PUT_RETRY_S)
                return
            except Full:
                if abandoned:
                    return
                if self._leave_by is not None and time.monotonic() >= self._leave_by:
                    logger.info("the terminal does not read; the app leaves without it")
                    self.abandon()

    def leave(self) -> None:
        """The app is leaving: from now on a write waits at most :data:`STOP_WAIT_S` (from
        this call) for the terminal to take output, then the terminal is abandoned."""
        if self._leave_by is None:
            self._leave_by = time.monotonic() + STOP_WAIT_S

    def abandon(self) -> None:
        """Stop waiting for the terminal (output that finds the queue full is dropped)."""
        self.abandoned.set()

    def run(self) -> None:
        try:
            super().run()
        except (OSError, ValueError) as exc:  # EIO, EPIPE, or a file closed under us
            if not self.gone.is_set():
                logger.info("terminal gone; its output is dropped", extra={"error": str(exc)})
            self.gone.set()
            self._drain()

    def _drain(self) -> None:
        """Empty the queue until the stop marker, so no caller ever waits on it."""
        while True:
            try:
                if self._queue.get(timeout=_PUT_RETRY_S) is None:
                    return
            except Empty:
                continue

    def stop(self) -> None:
        with contextlib.suppress(Full):  # the terminal stopped reading: the join gives up too
            self._queue.put(None, timeout=STOP_WAIT_S)
        self.join(STOP_WAIT_S)
        if self.is_alive():
            logger.info("terminal output not flushed in time; leaving it")
            self.abandon()


class LinuxTerminalDriver(LinuxDriver):
    """Textual's Linux driver, writing through a :class:`TerminalWriter`, with a
    :class:`~weaver_tui.core.terminal_hangup.HangupWatch` on its input."""

    _hangup_watch: HangupWatch | None = None

    def start_application_mode(self) -> None:
        super().start_application_mode()  # type: ignore[no-untyped-call]
        self._hangup_watch = HangupWatch(self.fileno)
        self._hangup_watch.start()
        started = self._writer_thread
        if started is None or self._file is None or isinstance(started, TerminalWriter):
            return
        # Textual builds its own writer inline; the setup sequences it queued go out first
        # (everything writes from the event loop's thread, which is this one), then ours.
        with contextlib.suppress(Full):
            started._queue.put(None, timeout=STOP_WAIT_S)
        started.join(STOP_WAIT_S)
        writer = TerminalWriter(self._file)
        writer.start()
        self._writer_thread = writer

    def stop_application_mode(self) -> None:
        if self._hangup_watch is not None:
            self._hangup_watch.stop()
        super().stop_application_mode()

    def abandon_output(self) -> None:
        """Free the app from a terminal that no longer reads (a stop signal arrived)."""
        if isinstance(self._writer_thread, TerminalWriter):
            self._writer_thread.abandon()

    def leaving(self) -> None:
        """The app is exiting: its last output waits a bounded time for the terminal."""
        if isinstance(self._writer_thread, TerminalWriter):
            self._writer_thread.leave()
