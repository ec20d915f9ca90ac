"""``weaver-tui space``: one link per participant, each opening a seat locked to them, over
the real server, real seat processes and a websocket driven as the browser's page drives it;
the host answers the seats' messages with the offline model."""

from __future__ import annotations

import asyncio
import json
import queue
import re
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

WAIT_S = 90
SEAT_LINE = re.compile(r"(\w+): http://127\.0\.0\.1:(\d+)/\?seat=([A-Za-z0-9_-]{43})")
F8 = "\x1b[19~"
Weaver = Callable[..., subprocess.CompletedProcess[str]]


class Space(Served):
    seats: dict[str, str]
    conversation_id: str

    def seat_url(self, name: str) -> str:
        return f"http://{self.address}/?seat={self.seats[name]}"


def _open(tmp_path: Path) -> Space:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "space", "open",
         "--participants", "Alex,Sam", "--port", str(port)],
        cwd=tmp_path, env=isolated_env(tmp_path), stdin=subprocess.DEVNULL,
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


def test_each_participant_gets_a_link_of_their_own_and_others_are_refused(space: Space) -> None:
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
    _, err = space.stop()
    assert not any(token in err for token in space.seats.values())


def test_a_private_message_never_reaches_the_other_seat_and_a_shared_one_does(
    space: Space,
) -> None:
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

    alex_bytes, sam_bytes = asyncio.run(session())
    assert b"secret" not in alex_bytes
    assert b"You are Sam" not in alex_bytes
    assert b"my secret debt" in sam_bytes  # Sam reads their own words


def test_a_seat_closed_mid_reply_loses_nothing_and_its_link_resumes(space: Space) -> None:
    async def send_and_leave() -> None:
        async with _connect(space, "Sam") as sam_ws:
            sam = Seat(sam_ws)
            await sam.until(b"You are Sam")
            await sam.type("remember this please\r")
            await sam.until(b"remember this please")

    async def come_back() -> bytes:
        async with _connect(space, "Sam") as sam_ws:
            sam = Seat(sam_ws)
            await sam.until(b"remember this please")
            await sam.until(b"Mediator")  # the mediator's answer, written by the host
            return sam.received

    asyncio.run(send_and_leave())
    assert b"remember this please" in asyncio.run(come_back())


def test_closing_the_space_revokes_every_link(space: Space, weaver: Weaver) -> None:
    closed = weaver("space", "close", "--conversation", space.conversation_id)
    assert closed.returncode == 0, closed.stderr
    assert "closed 2 seats" in closed.stdout
    for name in space.seats:
        assert httpx.get(space.seat_url(name), timeout=10).status_code == 403
