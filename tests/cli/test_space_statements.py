"""A statement round and a consent over the real server: the host (``space open``) in its own
process, two seats as the browser's page drives them over websockets.

- On the offline model: Sam's shared proposal becomes a statement at both seats; Sam answers
  "partly" with a critique typed at the seat, Alex agrees; the mediator revises it; both agree
  and both seats show it agreed. Alex's seat never receives Sam's critique.
- On a model (ChatOpenAI on the fake server): a post that draws on Sam's private words waits
  for Sam; Sam refuses at the seat; nothing is posted, and the mediator reads the refusal.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

from storage.change_signal import StoreChanges
from tests.cli.test_ask import _server_env
from tests.cli.test_space import F8, WAIT_S, Seat, Space, _connect, _open
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

F5, F6, F7 = "\x1b[15~", "\x1b[17~", "\x1b[18~"
CRITIQUE = "too little left for the trip"


def test_a_statement_round_end_to_end_and_a_seat_never_sees_another_s_critique(
    tmp_path: Path,
) -> None:
    space = _open(tmp_path)
    try:
        alex_bytes = asyncio.run(_statement_round(space))
    finally:
        space.stop()
    assert CRITIQUE.encode() not in alex_bytes


async def _statement_round(space: Space) -> bytes:
    async with _connect(space, "Alex") as alex_ws, _connect(space, "Sam") as sam_ws:
        alex, sam = Seat(alex_ws), Seat(sam_ws)
        await alex.until(b"You are Alex")
        await sam.until(b"You are Sam")
        await alex.type(F8)
        await sam.type(F8)
        await alex.until(b"speaking to everyone")
        await sam.until(b"speaking to everyone")
        await alex.type("We want a budget\r")
        await sam.until(b"We want a budget")
        await sam.type("Let us save 300 a month\r")
        for seat in (alex, sam):  # the proposal, at both seats
            await seat.until(b"v1 (to answer)")
        await sam.type(CRITIQUE + F6)
        await alex.until("Sam ● answered".encode())
        await alex.type(F5)
        await alex.until(b"Sam ~ partly")  # everyone answered: the answers show
        await alex.type("Can we find a middle way\r")
        for seat in (alex, sam):  # the revision, beside the first version
            await seat.until(b"v2 (to answer)")
        await alex.type(F5)
        await sam.type(F5)
        for seat in (alex, sam):
            await seat.until("✔ Agreed S1 v2".encode())
        return alex.received


def test_a_refused_consent_posts_nothing(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    post = "Sam wants a plan for an old debt."
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", {"recipient": "Sam", "content": "Thank you, Sam."}, id="p")]),
        Reply("Answered Sam."),
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": post, "draws_on": ["Sam"]}, id="c")]),
        Reply("Sam refused; nothing shared."),
    )  # fmt: skip
    space = _open(tmp_path, provider=_server_env(fake_openai))
    try:
        alex_bytes = asyncio.run(_consent_refused(space, tmp_path))
    finally:
        space.stop()
    assert post.encode() not in alex_bytes
    refusal = _tool_errors(tmp_path)
    assert refusal == ["Sam refused: nothing was posted. Do not share what they told you "
                       "privately; ask them what they would like to say themselves."]  # fmt: skip
    shared = fake_openai.chat_bodies[-1]["messages"]
    assert shared[-1]["role"] == "tool"
    assert shared[-1]["content"] == refusal[0]  # the mediator reads the refusal


async def _consent_refused(space: Space, tmp_path: Path) -> bytes:
    async with _connect(space, "Alex") as alex_ws, _connect(space, "Sam") as sam_ws:
        alex, sam = Seat(alex_ws), Seat(sam_ws)
        await alex.until(b"You are Alex")
        await sam.until(b"You are Sam")
        await sam.type("I have a debt I never mentioned\r")
        await sam.until(b"Thank you, Sam.")
        await alex.type(F8)
        await alex.until(b"speaking to everyone")
        await alex.type("How are we doing\r")
        await sam.until(b"uses what you told the mediator privately")
        await sam.type(F7)
        await _until(tmp_path, lambda: bool(_tool_errors(tmp_path)))
        await alex.until(b"How are we doing")
        return alex.received


def _tool_errors(tmp_path: Path) -> list[str]:
    with sqlite3.connect(tmp_path / "data" / "weaver.db") as db:
        rows = db.execute(
            "SELECT json_extract(meta, '$.error') FROM messages WHERE role = 'tool'"
            " AND json_extract(meta, '$.name') = 'post_to_shared'"
            " AND json_extract(meta, '$.error') IS NOT NULL"
        ).fetchall()
    return [str(row[0]) for row in rows]


async def _until(tmp_path: Path, done: Callable[[], bool]) -> None:
    """Until ``done()``, looking again after each commit to the host's store."""
    changes = StoreChanges(tmp_path / "data" / "weaver.db")
    try:
        async with asyncio.timeout(WAIT_S):
            while not done():
                await changes.wait(poll_s=0.05)
    finally:
        changes.close()
