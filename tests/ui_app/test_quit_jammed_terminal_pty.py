"""Quitting never waits on a terminal that has stopped taking output.

The real app runs on a real pty whose other end stops reading once the chat screen is up;
the app fills the terminal and Textual's output queue (``jammed_terminal_quit``), then quits as
Ctrl+Q does. Its shutdown still has output to write (the last frame, leaving the alternate
screen): that output waits a bounded time, then is dropped, and the process ends. Before, a
write found the queue full and waited for the terminal forever, so the app never exited.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.cli.conftest import isolated_env
from tests.ui_app.test_launch_typing_pty import BOUND_S, Terminal


def test_quit_with_a_terminal_that_stopped_reading_still_ends_the_app(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    env = {**isolated_env(tmp_path), "TERM": "xterm-256color"}
    terminal = Terminal(
        [sys.executable, "-m", "tests.ui_app.jammed_terminal_quit", str(ready)], tmp_path, env
    )
    try:
        end = time.monotonic() + BOUND_S
        while not ready.exists():  # the terminal reads until the app says it is jamming it
            assert time.monotonic() < end, "the chat screen never came up"
            assert terminal.process.poll() is None, terminal.screen.decode(errors="replace")
            terminal.read(0.05)
        try:
            code = terminal.process.wait(timeout=BOUND_S)  # the terminal reads nothing more
        except subprocess.TimeoutExpired as stuck:
            terminal.process.kill()
            raise AssertionError(
                "the app never exited: its shutdown waits on the terminal"
            ) from stuck
        assert code == 0
    finally:
        terminal.close()
