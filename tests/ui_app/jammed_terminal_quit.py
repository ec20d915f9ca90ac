"""``python -m tests.ui_app.jammed_terminal_quit READY_FILE``: the real app on this terminal,
which is made to stop taking output, then told to quit (for test_quit_jammed_terminal_pty).

Once the chat screen is up, the file READY_FILE is written (the test stops reading the
terminal then) and output is queued for the terminal until Textual's output queue is full:
nobody reads the terminal any more, so the output thread is stuck in a write and the queue
stays full. Then the app is told to exit, as Ctrl+Q does, and its shutdown has output to write.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from queue import Full
from typing import Any

from textual.pilot import Pilot

from weaver_tui.app import make_app
from weaver_tui.core.settings.config import load_settings
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.terminal_writer import LinuxTerminalDriver

FILLER = "\x1b[H" + "jam " * 1024


def _fill(queue: Any) -> None:
    """Queue output until the queue is full (its reader stuck in a write nobody takes)."""
    while not queue.full():
        try:
            queue.put(FILLER, timeout=0.05)
        except Full:
            continue


async def _jam_then_quit(pilot: Pilot[Any], ready_file: Path) -> None:
    app = pilot.app
    while not (isinstance(app.screen, ChatScreen) and app.screen.composer_ready):  # noqa: ASYNC110
        await asyncio.sleep(0.02)
    driver = app._driver
    assert isinstance(driver, LinuxTerminalDriver)
    writer = driver._writer_thread
    assert writer is not None
    await asyncio.to_thread(ready_file.write_text, "the terminal is not read from now on\n")
    # Filled and told to exit in one step of the event loop: every write of the app comes
    # from this loop, so none can find the queue full before the app is leaving (such a
    # write waits for the terminal, as any terminal program does while its output is held).
    _fill(writer._queue)
    app.exit()


def main(ready_file: Path) -> int:
    app = make_app(load_settings(env_file=None, provider="offline"), profile="ide-helper")

    async def auto_pilot(pilot: Pilot[Any]) -> None:
        await _jam_then_quit(pilot, ready_file)

    app.run(auto_pilot=auto_pilot)
    return int(app.return_code or 0)


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
