"""Quitting while the launch's warm-up is still importing the agent stack ends the app at once.

The warm-up imports the open profile's graph in a thread after the first paint. The ``gated``
test profile's graph module waits at import for as long as the test holds its FIFO open, so the
test quits with that import in flight, on a real process and pty: the app must end without
waiting for the import (Python's exit joins the default executor's threads, so a warm-up run
there would hold the exit until the gate is released) and print no traceback about the thread
it leaves behind.
"""

from __future__ import annotations

import errno
import os
import sys
import time
from pathlib import Path

from tests.cli.conftest import isolated_env
from tests.ui_app.test_launch_typing_pty import BOUND_S, Terminal


def test_quitting_while_the_warm_up_imports_ends_without_waiting_for_the_import(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "profile-gate"
    os.mkfifo(fifo)
    env = {
        **isolated_env(tmp_path, GATED_PROFILE_FIFO=str(fifo)),
        "TERM": "xterm-256color",
    }
    terminal = Terminal(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "--profile", "gated"],
        tmp_path,
        env,
    )
    gate: int | None = None
    try:
        terminal.wait_for(b"Write a message")
        gate = _hold_the_gate_once_the_import_waits(terminal, fifo)
        terminal.type(b"\x11")  # Ctrl+Q, the profile's import still held at its gate
        end = time.monotonic() + BOUND_S
        while terminal.process.poll() is None and time.monotonic() < end:
            terminal.read(0.05)
        exited_with_the_import_held = terminal.process.poll()
    finally:
        if gate is not None:
            os.close(gate)  # lets an app that waits for the import go on
        terminal.close()
    assert exited_with_the_import_held == 0
    assert b"Traceback" not in terminal.screen


def _hold_the_gate_once_the_import_waits(terminal: Terminal, fifo: Path) -> int:
    """The FIFO's write end, opened once the warm-up's import has opened its read end (until
    then, opening it without blocking fails with ENXIO): the import then reads until it closes."""
    end = time.monotonic() + BOUND_S
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # only "no reader yet" means: wait
                raise
            assert time.monotonic() < end, "the warm-up never imported the profile"
            assert terminal.process.poll() is None, terminal.screen[-2000:]
            terminal.read(0.05)
