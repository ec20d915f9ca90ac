"""The hang-up watch on the terminal's input (weaver_tui.core.terminal_hangup), on a real pipe:
its reading end hangs up when the writing end closes, as a pty's does when its window goes.
The real app on a real pty: test_stop_signals_pty.py."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from types import FrameType

import pytest

from weaver_tui.core.terminal_hangup import POLL_S, HangupWatch

BOUND_S = 30


@pytest.fixture
def hangups() -> Iterator[list[int]]:
    """SIGHUPs this process receives while the test runs (the handler runs in the main thread,
    where pytest runs the test)."""
    received: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    previous = signal.signal(signal.SIGHUP, record)
    try:
        yield received
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_a_hang_up_sends_sighup_once_and_the_watch_ends(hangups: list[int]) -> None:
    read_end, write_end = os.pipe()
    watch = HangupWatch(read_end)
    watch.start()
    try:
        os.write(write_end, b"keys")  # input is not a hang-up, and the watch reads none of it
        os.close(write_end)
        watch.join(BOUND_S)
        assert not watch.is_alive()
        deadline = time.monotonic() + BOUND_S
        while not hangups and time.monotonic() < deadline:
            time.sleep(0.01)  # the handler runs in this thread between two bytecodes
        assert hangups == [signal.SIGHUP]
        assert os.read(read_end, 16) == b"keys"
    finally:
        os.close(read_end)


def test_a_watch_stopped_before_the_hang_up_sends_nothing(hangups: list[int]) -> None:
    read_end, write_end = os.pipe()
    watch = HangupWatch(read_end)
    watch.start()
    try:
        watch.stop()
        os.close(write_end)  # the hang-up comes after the app left its terminal
        watch.join(POLL_S * 10)
        assert not watch.is_alive()
        assert hangups == []
    finally:
        os.close(read_end)
