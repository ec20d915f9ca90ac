"""``weaver-tui space``: one link per participant, each opening a seat locked to them, over
the real server, real seat processes and a websocket driven as the browser's page drives it
(or ``space join`` in a real terminal, relaying the same websocket); the host answers the
seats' messages with the offline model."""

from __future__ import annotations

import asyncio
import json
import queue
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.typing import Origin

from tests.cli.conftest import isolated_env
from tests.cli.test_serve import Served, _drain, _free_port, _refusal
from tests.ui_app.test_launch_typing_pty import Terminal

WAIT_S = 90
SEAT_LINE = re.compile(r"(\w+): http://127\.0\.0\.1:(\d+)/\?seat=([A-Za-z0-9_-]{43})")
F8 = "\x1b[19~"
CTRL_Q = b"\x11"
Weaver = Callable[..., subprocess.CompletedProcess[str]]


class Space(Served):
    seats: dict[str, str]
    conversation_id: str

    def seat_url(self, name: str) -> str:
        return f"http://{self.address}/?seat={self.seats[name]}"


def _open(tmp_path: Path, *options: str, provider: dict[str, str] | None = None) -> Space:
    """``space open`` for Alex and Sam on the offline model, or with ``provider``'s variables."""
    port = _free_port()
    chosen = [] if provider else ["--provider", "offline"]
    process = subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", *chosen, "space", "open",
         "--participants", "Alex,Sam", "--port", str(port), *options],
        cwd=tmp_path, env=isolated_env(tmp_path, **(provider or {})), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    assert process.stderr is not None
    lines: queue.Queue[str] = queue.Queue()
    stderr: list[str] = []
    readers = [_drain(process.stdout, lines.put), _drain(process.stderr, stderr.append)]
    seats: dict[str, str] = {}
    try:
        for _ in range(2):
            line = lines.get(timeout=WAIT_S).rstrip("\n")
            match = SEAT_LINE.fullmatch(line)
            assert match, line
            assert int(match[2]) == port, line
            seats[match[1]] = match[3]
    except queue.Empty:
        process.kill()
        pytest.fail(f"space open printed no links: {''.join(stderr)[-2000:]!r}")
    space = Space(process, port, "", "", lines, readers, stderr)
    space.seats = seats
    found = re.search(r"serving space (\S+);", "".join(stderr))
    assert found, stderr
    space.conversation_id = found[1]
    return space


@pytest.fixture
def space(tmp_path: Path) -> Iterator[Space]:
    served = _open(tmp_path)
    yield served
    served.stop()


def join(tmp_path: Path, url: str) -> Terminal:
    """``weaver-tui space join URL`` in a real terminal."""
    args = [sys.executable, "-m", "weaver_tui", "space", "join", url]
    return Terminal(args, tmp_path, isolated_env(tmp_path))


class Seat:
    """A browser's connection to a seat: everything the server sent it, kept."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.received = b""

    async def until(self, marker: bytes) -> None:
        async with asyncio.timeout(WAIT_S):
            while marker not in self.received:
                message = await self.ws.recv()
                self.received += message if isinstance(message, bytes) else message.encode()

    async def type(self, text: str) -> None:
        await self.ws.send(json.dumps(["stdin", text]))


def _connect(space: Space, name: str) -> websockets.connect:
    return websockets.connect(
        f"ws://{space.address}/ws/{space.seats[name]}?width=100&height=40",
        origin=Origin(f"http://{space.address}"),
        proxy=None,
        max_size=None,
    )


def test_each_participant_s_link_opens_their_own_seat_private_words_stay_private_until_closed(
    space: Space, weaver: Weaver, tmp_path: Path
) -> None:
    """One host (its start is most of this test's cost), four steps: each participant gets a
    link of their own and other links are refused; Alex's link, joined from a terminal
    (``space join``), sends as Alex and shows the mediator's private reply; over the
    browser's websockets, Sam's private message never reaches Alex's seat while Alex's
    shared one reaches both, and Sam's link opened again shows what Sam wrote and the
    mediator's answer (nothing was lost with the closed seat); ``space close`` revokes
    every link, for the page and for ``space join`` (one sentence, no traceback). No seat's
    token reaches the host's log."""
    _each_participant_has_a_link_of_their_own(space)
    _a_seat_joined_from_a_terminal_sends_as_its_participant(space, tmp_path)
    _a_private_message_reaches_no_other_seat_a_shared_one_does_and_a_left_seat_resumes(space)
    _closing_the_space_revokes_every_link(space, weaver, tmp_path)
    _, err = space.stop()
    assert not any(token in err for token in space.seats.values())


def _each_participant_has_a_link_of_their_own(space: Space) -> None:
    assert set(space.seats) == {"Alex", "Sam"}
    assert space.seats["Alex"] != space.seats["Sam"]
    for name in space.seats:
        assert httpx.get(space.seat_url(name), timeout=10).status_code == 200
    assert httpx.get(f"http://{space.address}/?seat=guess", timeout=10).status_code == 403
    assert httpx.get(f"http://{space.address}/?token={space.seats['Alex']}").status_code == 403
    assert asyncio.run(_refusal(f"ws://{space.address}/ws/guess")) == 403
    evil = Origin("http://evil.example")
    url = f"ws://{space.address}/ws/{space.seats['Alex']}"
    assert asyncio.run(_refusal(url, origin=evil)) == 403


def _a_seat_joined_from_a_terminal_sends_as_its_participant(space: Space, tmp_path: Path) -> None:
    """Relayed from the host over the seat's websocket, as a browser's page would."""
    seat = join(tmp_path, space.seat_url("Alex"))
    try:
        seat.wait_for(b"You are Alex")
        seat.type(b"hello from another machine\r")
        seat.wait_for(b"to you, privately")  # the mediator's private reply, at this seat
        assert said_by_alex(tmp_path) == ["hello from another machine"]
        seat.type(CTRL_Q)
        seat.wait_for(b"The seat was closed.")
    finally:
        seat.close()
    assert seat.process.returncode == 0


def _closing_the_space_revokes_every_link(space: Space, weaver: Weaver, tmp_path: Path) -> None:
    closed = weaver("space", "close", "--conversation", space.conversation_id)
    assert closed.returncode == 0, closed.stderr
    assert "closed 2 seats" in closed.stdout
    for name in space.seats:
        assert httpx.get(space.seat_url(name), timeout=10).status_code == 403
    seat = join(tmp_path, space.seat_url("Sam"))
    try:
        seat.wait_for(b"the host refused this link: it was revoked or mistyped")
    finally:
        seat.close()
    assert seat.process.returncode != 0
    assert b"Traceback" not in seat.screen


def said_by_alex(tmp_path: Path) -> list[str]:
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        rows = db.execute(
            "SELECT content FROM messages WHERE role = 'user'"
            " AND json_extract(meta, '$.sender') = 'Alex'"
        ).fetchall()
    return [row[0] for row in rows]


def _a_private_message_reaches_no_other_seat_a_shared_one_does_and_a_left_seat_resumes(
    space: Space,
) -> None:
    """Sam's private message never reaches Alex's seat and Alex's shared one reaches both;
    both seats close as soon as they have shown it (the host may still be answering), and
    Sam's link, opened again, shows what Sam wrote and the mediator's answer: nothing was
    lost with the closed seat."""

    async def session() -> tuple[bytes, bytes]:
        async with _connect(space, "Alex") as alex_ws, _connect(space, "Sam") as sam_ws:
            alex, sam = Seat(alex_ws), Seat(sam_ws)
            await alex.until(b"You are Alex")
            await sam.until(b"You are Sam")
            await sam.type("my secret debt\r")
            await sam.until(b"my secret debt")
            await alex.type(F8)
            await alex.until(b"speaking to everyone")
            await alex.type("hello both\r")
            await sam.until(b"hello both")  # a message at one seat appears at the other
            await alex.until(b"hello both")
            return alex.received, sam.received

    async def come_back() -> bytes:
        async with _connect(space, "Sam") as sam_ws:
            sam = Seat(sam_ws)
            await sam.until(b"my secret debt")
            await sam.until(b"Mediator")  # the mediator's answer, written by the host
            return sam.received

    alex_bytes, sam_bytes = asyncio.run(session())
    assert b"secret" not in alex_bytes
    assert b"You are Sam" not in alex_bytes
    assert b"my secret debt" in sam_bytes  # Sam reads their own words
    assert b"my secret debt" in asyncio.run(come_back())
