"""A terminal that hangs up ends the app as SIGHUP does, even when no SIGHUP comes.

Closing a window normally sends SIGHUP to the processes of its terminal, but not to a process
for which that terminal is not the controlling one (started by another program on a pty of its
own, or in a session of its own). Such an app used to outlive its terminal: nothing could ever
reach it again, and Textual's input thread, reading a terminal at its end, turned in a busy
loop on one core. :class:`HangupWatch` polls the input for a hang-up only (no reading, so it
takes nothing from Textual's reader) and, when it comes, sends the process SIGHUP: the app's
stop-signal handling then cancels and keeps the reply being written and ends the app.
"""

from __future__ import annotations

import logging
import os
import select
import signal
import threading

logger = logging.getLogger(__name__)

POLL_S = 1.0
"""How often the watch looks whether the app has stopped (it sleeps in poll(2) meanwhile)."""

_HUNG_UP = select.POLLHUP | select.POLLERR | select.POLLNVAL


class HangupWatch(threading.Thread):
    """Watches ``fd`` (the terminal's input) until :meth:`stop`; a hang-up sends SIGHUP once."""

    def __init__(self, fd: int) -> None:
        super().__init__(name="terminal-hangup-watch", daemon=True)
        self._fd = fd
        self._stopped = threading.Event()

    def stop(self) -> None:
        """The app is leaving its terminal: a hang-up from now on is none of the app's."""
        self._stopped.set()

    def run(self) -> None:
        poller = select.poll()
        poller.register(self._fd, 0)  # no events asked for: poll(2) reports only hang-ups
        while not self._stopped.is_set():
            events = poller.poll(POLL_S * 1000)
            if any(mask & _HUNG_UP for _fd, mask in events) and not self._stopped.is_set():
                logger.info("the terminal hung up; the app ends as on SIGHUP")
                os.kill(os.getpid(), signal.SIGHUP)
                return
