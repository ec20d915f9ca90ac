"""SIGTERM and SIGHUP take one path through the app: the handler ``StopSignals`` installs for
each quits the app with that signal's number and starts the watchdog.

The real-process tests (``test_stop_signals_pty.py``, ``test_launch_typing_pty.py``) end the
app with one of the two per situation; this checks, without a process, that the other signal
reaches the same code with its own number.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from weaver_tui.core.stop_signals import StopSignals


def test_sigterm_and_sighup_each_quit_the_app_with_their_number_and_start_the_watchdog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watched: list[int] = []
    # The real watchdog ends the process two seconds later: here it only says it started.
    monkeypatch.setattr(StopSignals, "_end_in_time", lambda self, signum: watched.append(signum))
    quits: list[int] = []
    loop = asyncio.new_event_loop()
    try:
        for number in (signal.SIGTERM, signal.SIGHUP):
            name = number.name
            before = signal.getsignal(number)
            stops = StopSignals(loop, quits.append, lambda: None)
            stops.install()
            handler = signal.getsignal(number)
            assert callable(handler), f"{name} is not handled"
            assert handler is not before, f"{name} is not handled"
            handler(number, None)  # what the interpreter calls when the signal arrives
            loop.run_until_complete(asyncio.sleep(0))  # the quit was queued on the loop
            stops.uninstall()
            assert signal.getsignal(number) == before
    finally:
        loop.close()
    assert sorted(quits) == sorted(watched) == sorted([signal.SIGTERM, signal.SIGHUP])
