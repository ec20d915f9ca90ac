"""Typing at the very first frame of the real command, through a pseudo-terminal.

Pilot tests place keys at chosen steps of the launch (``test_launch_deferred.py``); this checks
the real timing end to end (keys arriving while the chat screen is being swapped in for the
launch frame, or while a profile's panel is still loading): it runs
``python -m weaver_tui`` on a real pty, types a message key by key as soon as the first frame
shows the composer, presses Enter, quits, and reads the store.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.cli.conftest import isolated_env
from tests.support.fake_openai import FakeOpenAI

BOUND_S = 60


class Terminal:
    """A child process on a pseudo-terminal of 120x30: read what it draws, type keys."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
        self.process = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        os.close(slave)
        self.screen = b""

    def read(self, seconds: float) -> bool:
        """Take what the app draws for ``seconds``; False once the terminal is closed."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                try:
                    self.screen += os.read(self.master, 65536)
                except OSError:
                    return False
        return True

    def wait_for(self, text: bytes) -> None:
        end = time.monotonic() + BOUND_S
        while text not in self.screen:
            assert time.monotonic() < end, f"{text!r} never drawn"
            self.read(0.05)

    def type(self, keys: bytes, pause_s: float = 0.02) -> None:
        for key in keys:
            os.write(self.master, bytes([key]))
            self.read(pause_s)

    def close(self) -> None:
        """Wait for the app to end, reading what it draws meanwhile as a terminal does (an
        app's last frames fill a pty nobody reads: test_quit_jammed_terminal_pty)."""
        try:
            end = time.monotonic() + BOUND_S
            while self.process.poll() is None and time.monotonic() < end and self.read(0.05):
                pass
            self.process.wait(timeout=max(0.0, end - time.monotonic()))
        finally:
            if self.process.poll() is None:
                self.process.kill()
            os.close(self.master)


@pytest.mark.parametrize("profile", ["ide-helper", "mediator"])
def test_a_message_typed_and_sent_at_the_first_frame_is_sent_once(
    tmp_path: Path, profile: str
) -> None:
    env = {**isolated_env(tmp_path), "TERM": "xterm-256color"}
    terminal = Terminal(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "--profile", profile],
        tmp_path,
        env,
    )
    try:
        terminal.wait_for(b"Write a message")  # the launch frame's composer
        terminal.type(b"hello there\r")
        end = time.monotonic() + BOUND_S
        while not _messages(tmp_path, "assistant") and time.monotonic() < end:
            terminal.read(0.1)
        terminal.type(b"\x11")  # Ctrl+Q
    finally:
        terminal.close()
    assert _messages(tmp_path, "user") == ["hello there"]
    assert _messages(tmp_path, "assistant")


def test_a_message_typed_before_the_first_frame_is_sent(tmp_path: Path) -> None:
    """Typed the moment the command starts (before Python has even loaded the app, so the
    terminal is still in line mode and Enter arrives as a line feed): kept and sent once."""
    env = {**isolated_env(tmp_path), "TERM": "xterm-256color"}
    terminal = Terminal(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "--profile", "ide-helper"],
        tmp_path,
        env,
    )
    try:
        terminal.type(b"hello there\r", pause_s=0)
        end = time.monotonic() + BOUND_S
        while not _messages(tmp_path, "assistant") and time.monotonic() < end:
            terminal.read(0.1)
        terminal.type(b"\x11")  # Ctrl+Q
    finally:
        terminal.close()
    assert _messages(tmp_path, "user") == ["hello there"]
    assert _messages(tmp_path, "assistant")


def _messages(tmp_path: Path, role: str) -> list[str]:
    db = tmp_path / "data" / "weaver.db"
    if not db.exists():
        return []
    with sqlite3.connect(db) as connection:
        try:
            rows = connection.execute("SELECT content FROM messages WHERE role = ?", (role,))
            return [content for (content,) in rows]
        except sqlite3.OperationalError:  # the schema is not written yet
            return []


def test_a_stop_signal_mid_reply_cancels_and_keeps_the_partial_reply(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """SIGHUP, as ``tmux kill-server`` sends with the terminal still open (SIGTERM takes the
    same path: see test_stop_signal_routing; it ends the app mid-reply in
    test_stop_signals_pty)."""
    import signal

    from tests.support.held_reply import running_reply

    fake_openai.script(running_reply(words=3000))  # held mid-reply: a word per release
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
    try:
        terminal.wait_for(b"Write a message")
        terminal.type(b"tell me a long story\r")
        end = time.monotonic() + BOUND_S
        while "word20" not in "".join(_messages(tmp_path, "assistant")):
            assert time.monotonic() < end, "the reply never streamed"
            fake_openai.release()  # one more word: a streaming reply is saved as words arrive
            terminal.read(0.1)
        terminal.process.send_signal(signal.SIGHUP)
        terminal.process.wait(timeout=BOUND_S)
    finally:
        terminal.close()
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as connection:
        statuses = [s for (s,) in connection.execute(
            "SELECT status FROM messages WHERE role = 'assistant'")]  # fmt: skip
    assert statuses
    assert "streaming" not in statuses
    assert "cancelled" in statuses
