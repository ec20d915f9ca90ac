"""Two ``space open`` hosts on one PostgreSQL database serve the seats of one space: the same
links open a seat at either host, a message sent at a seat of one host appears at a seat of
the other within the wait (the server's ``NOTIFY``), and a seat that reconnects through the
other host sees the same conversation."""

from __future__ import annotations

import asyncio
import queue
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage.pg_seats import PgSeatBook
from storage.pg_store import PgConversationStore
from tests.cli.conftest import isolated_env
from tests.cli.test_serve import _drain, _free_port
from tests.cli.test_space import F8, SEAT_LINE, WAIT_S, Seat, Space, _connect


def _open_host(tmp_path: Path, url: str, *options: str) -> Space:
    port = _free_port()
    env = isolated_env(tmp_path, WEAVER_STORAGE__URL=url)
    process = subprocess.Popen(
        [sys.executable, "-m", "weaver_tui", "--provider", "offline", "space", "open",
         "--participants", "Alex,Sam", "--port", str(port), *options],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
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
            match = SEAT_LINE.fullmatch(lines.get(timeout=WAIT_S).rstrip("\n"))
            assert match
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


def _answered_once(url: str, conversation_id: str, text: str) -> None:
    """Once the line is empty, the message is one record with one answer: the two hosts'
    runners took turns as the space's answerer, never both."""
    book = PgSeatBook(url)
    try:
        deadline = time.monotonic() + WAIT_S
        while book.queued(conversation_id):
            assert time.monotonic() < deadline, "the seat's message was never answered"
            time.sleep(0.05)
    finally:
        book.close()
    with PgConversationStore(url) as store:
        said = [r for r in store.list_messages(conversation_id) if r.content == text]
        assert len(said) == 1
        assert [r.role for r in store.children(said[0].id, conversation_id)] == ["assistant"]


def test_two_hosts_on_one_database_serve_the_same_seats_live(
    tmp_path: Path, postgres_url: str
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _open_host(tmp_path / "a", postgres_url)
    try:
        second = _open_host(tmp_path / "b", postgres_url, "--conversation", first.conversation_id)
        try:
            assert second.conversation_id == first.conversation_id
            assert second.seats == first.seats  # the same links, at either host

            async def across() -> bytes:
                async with _connect(first, "Alex") as alex_ws, _connect(second, "Sam") as sam_ws:
                    alex, sam = Seat(alex_ws), Seat(sam_ws)
                    await alex.until(b"You are Alex")
                    await sam.until(b"You are Sam")
                    await alex.type(F8)
                    await alex.until(b"speaking to everyone")
                    await alex.type("hello from the first host\r")
                    await sam.until(b"hello from the first host")  # written via the other host
                    await sam.until(b"Mediator")  # answered by one of the hosts
                    return sam.received

            async def back_through_the_first() -> bytes:
                async with _connect(first, "Sam") as sam_ws:
                    sam = Seat(sam_ws)
                    await sam.until(b"hello from the first host")
                    return sam.received

            assert b"hello from the first host" in asyncio.run(across())
            assert b"Mediator" in asyncio.run(back_through_the_first())
            _answered_once(postgres_url, first.conversation_id, "hello from the first host")
        finally:
            second.stop()
    finally:
        first.stop()
