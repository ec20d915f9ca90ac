"""A seat sees the mediator's reply once its audience is settled, never while it streams.

Sam speaks to everyone and the mediator answers without a delivery tool, so the reply goes
back privately to Sam when it ends. While it streams (a real ``ChatOpenAI`` client on the local
OpenAI-compatible server, paced tokens), Alex's seat view, read through the store's viewer
filter, is polled from another connection: the reply never appears there.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.shared_space.seat_view import seat_lines
from storage.models import Conversation, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import Reply

FOR_SAM = "Sam, only you read this answer about the overdraft."


async def test_a_reply_that_ends_private_to_sam_never_shows_at_alexs_seat(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    fake_openai: Any,
    openai_model: Any,
    tmp_path: Path,
) -> None:
    fake_openai.script(
        Reply(FOR_SAM, deltas=[f"{word} " for word in FOR_SAM.split()], token_delay=0.03)
    )
    said = store.add_message(
        space.id, "user", "Can we talk money?", None, {"sender": "Sam", "visibility": "shared"}
    )
    store.set_active_leaf(space.id, said.id)
    seat = SqliteConversationStore(tmp_path / "weaver.db")  # the seat's own connection
    alex_saw: list[str] = []
    streaming_polls = 0
    done = asyncio.Event()

    async def watch_alexs_seat() -> None:
        nonlocal streaming_polls
        while not done.is_set():
            alex_saw.extend(line.content for line in seat_lines(seat, space.id, "Alex"))
            alex_saw.extend(row.content for row in seat.message_rows(space.id, "Alex"))
            everything = seat.message_rows(space.id, None)
            streaming_polls += any(
                row.status == MessageStatus.STREAMING.value for row in everything
            )
            await asyncio.sleep(0.005)

    watcher = asyncio.create_task(watch_alexs_seat())
    try:
        async for _ in runtime.run_turn(
            conversation_id=space.id, user_message_id=said.id, model=openai_model()
        ):
            await asyncio.sleep(0)
    finally:
        done.set()
        await watcher
    try:
        assert streaming_polls > 3  # the seat was read while the reply streamed
        assert not [text for text in alex_saw if "overdraft" in text]
        assert [line.content for line in seat_lines(seat, space.id, "Alex")] == [said.content]
        assert FOR_SAM in [line.content.strip() for line in seat_lines(seat, space.id, "Sam")]
    finally:
        seat.close()
