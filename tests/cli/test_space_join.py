"""``weaver-tui space join URL``: a participant takes their seat in a terminal (a real pty),
relayed from the real ``space open`` host over the seat's websocket, as a browser's page would;
a link that is not a seat's and a host that is gone are each one sentence (a revoked link:
``test_space.py``, on the host whose space is closed)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.cli.test_serve import _free_port
from tests.cli.test_space import Space, join, space  # noqa: F401 (the fixture)

CTRL_Q = b"\x11"


def said_by_alex(tmp_path: Path) -> list[str]:
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        rows = db.execute(
            "SELECT content FROM messages WHERE role = 'user'"
            " AND json_extract(meta, '$.sender') = 'Alex'"
        ).fetchall()
    return [row[0] for row in rows]


def test_a_seat_joined_from_a_terminal_sends_as_its_participant_and_shows_the_reply(
    space: Space,  # noqa: F811
    tmp_path: Path,
) -> None:
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
