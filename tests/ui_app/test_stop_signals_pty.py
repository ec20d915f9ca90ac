"""A closed terminal and a stop signal end the real app whatever its terminal is doing, and
keep the reply.

A closed window or ``tmux kill-server`` closes the pseudo-terminal's master side: every write
of the app then fails, and its input hangs up. A terminal that is open but no longer read (a
stuck multiplexer) makes every write wait. Both used to leave the app running forever, blocked
on its output thread (and, with a closed terminal, Textual's reader turning on one core).
SIGHUP and SIGTERM take one path through the app (``test_stop_signal_routing.py``); a hang-up
of the terminal takes SIGHUP's.
These run ``python -m weaver_tui`` on a real pty against the local OpenAI-compatible server.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.cli.conftest import isolated_env
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.ui_app.test_launch_typing_pty import BOUND_S, Terminal, _messages


def _wait_until(condition: Callable[[], bool], terminal: Terminal | None = None) -> bool:
    """Poll ``condition`` for up to :data:`BOUND_S`, reading the terminal if one is given."""
    end = time.monotonic() + BOUND_S
    while not condition():
        if time.monotonic() > end:
            return False
        if terminal is not None:
            terminal.read(0.1)
        else:
            time.sleep(0.1)
    return True


_WRITE_SYSCALL = {"x86_64": "1", "aarch64": "64"}
"""The number of write(2) in ``/proc/PID/task/TID/syscall``, by machine."""


def _writes_wait(pid: int) -> bool:
    """Whether a thread of the app sleeps inside a write(2) to its terminal: the terminal is
    not read and its buffer is full, so the write waits until it is read."""
    write = _WRITE_SYSCALL[os.uname().machine]
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
            call = (task / "syscall").read_text().split()
            target = os.readlink(f"/proc/{pid}/fd/{int(call[1], 16)}") if call[0] == write else ""
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue  # the thread ended meanwhile, or is running (no syscall to show)
        if state == "S" and target.startswith("/dev/pts/"):
            return True
    return False


def _reply_words(tmp_path: Path) -> int:
    return sum(len(text.split()) for text in _messages(tmp_path, "assistant"))


def _statuses(tmp_path: Path) -> list[str]:
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as connection:
        rows = connection.execute("SELECT status FROM messages WHERE role = 'assistant'")
        return [status for (status,) in rows]


def _start(tmp_path: Path, fake_openai: FakeOpenAI, reply: Reply) -> Terminal:
    fake_openai.script(reply)
    env = {
        **isolated_env(
            tmp_path,
            WEAVER_PROVIDER="openai-compatible",
            WEAVER_BASE_URL=fake_openai.base_url,
            WEAVER_API_KEY="k",
            WEAVER_MODEL="fake-model",
        ),
        "TERM": "xterm-256color",
    }
    terminal = Terminal(
        [sys.executable, "-m", "weaver_tui", "--profile", "mediator"], tmp_path, env
    )
    # The chat screen's own panel, not the launch frame: typing at the first frame is
    # test_launch_typing_pty's subject; here the message must simply be sent.
    terminal.wait_for(b"Speaking as:")
    terminal.type(b"tell me a long story\r")
    return terminal


def _long_reply() -> Reply:
    return Reply(deltas=[f"word{i} " for i in range(5000)], token_delay=0.01)


def _close_terminal(terminal: Terminal) -> None:
    """What a closed window does to the app's side: every later write fails."""
    os.close(terminal.master)
    terminal.master = os.open(os.devnull, os.O_RDONLY)  # so Terminal.close has one to close


def _ends_after(terminal: Terminal, stop: signal.Signals) -> int | None:
    terminal.process.send_signal(stop)
    return _ends_by_itself(terminal)


def _ends_by_itself(terminal: Terminal) -> int | None:
    try:
        return terminal.process.wait(timeout=BOUND_S)
    except subprocess.TimeoutExpired:
        return None


def test_a_closed_terminal_mid_reply_ends_the_app_as_a_hangup_and_marks_the_reply(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """The pty is not the app's controlling terminal, so closing it sends no SIGHUP: the app
    notices the hang-up itself and ends as SIGHUP would end it."""
    terminal = _start(tmp_path, fake_openai, _long_reply())
    try:
        assert _wait_until(lambda: _reply_words(tmp_path) > 20, terminal), "never streamed"
        _close_terminal(terminal)
        code = _ends_by_itself(terminal)
    finally:
        terminal.close()
    assert code == 128 + signal.SIGHUP, "the app did not end as a hangup ends it"
    assert _statuses(tmp_path) == ["cancelled"]


def test_a_terminal_that_stops_reading_does_not_keep_the_app_alive(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    terminal = _start(tmp_path, fake_openai, _long_reply())
    try:
        assert _wait_until(lambda: _reply_words(tmp_path) > 20, terminal), "never streamed"
        # Stop reading: the pty's buffer fills and the app's writes wait.
        assert _wait_until(lambda: _writes_wait(terminal.process.pid)), "the writes never waited"
        code = _ends_after(terminal, signal.SIGTERM)
    finally:
        terminal.close()
    assert code == 128 + signal.SIGTERM, "the app did not end with SIGTERM's exit code"
    assert _statuses(tmp_path) == ["cancelled"]


def test_a_closed_terminal_after_a_finished_turn_ends_the_app_and_keeps_the_reply(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """An idle app whose terminal closes ends too (nothing it writes has to fail first)."""
    terminal = _start(tmp_path, fake_openai, Reply("A short and finished answer."))
    try:
        assert _wait_until(lambda: _statuses(tmp_path) == ["complete"], terminal), "no reply"
        _close_terminal(terminal)
        code = _ends_by_itself(terminal)
    finally:
        terminal.close()
    assert code == 128 + signal.SIGHUP, "the app did not end as a hangup ends it"
    assert _statuses(tmp_path) == ["complete"]
