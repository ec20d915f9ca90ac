"""The seat runner of a host on a PostgreSQL server, beside another host: while the other is
the space's answerer this one stands by; once the other is killed mid-reply, this one takes
over, marks the dead host's reply interrupted, and answers what waits."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.seat_queue import SeatQueueRunner
from agents.shared_space.space import new_space
from storage.backend import StorageTarget, open_seat_book, open_store, turn_locks
from storage.models import MessageStatus
from storage.pg_store import PgConversationStore
from tests.storage.processes import Child
from tests.support.fake_openai import Reply

CHILD = "tests.storage.backend_child"


@pytest.fixture
def pg_store(postgres_url: str) -> Iterator[PgConversationStore]:
    store = open_store(StorageTarget(Path("."), postgres_url))
    assert isinstance(store, PgConversationStore)
    yield store
    store.close()


async def test_a_host_takes_over_a_space_whose_answerer_was_killed_mid_reply(
    pg_store: PgConversationStore, postgres_url: str, fake_openai: object, openai_model: object
) -> None:
    where = StorageTarget(Path("."), postgres_url)
    space = new_space(pg_store, ("Alex", "Sam"), "two hosts")
    runtime = AgentRuntime(pg_store, None, turn_locks=turn_locks(where))
    book = open_seat_book(where)
    other_host = Child("turn", postgres_url, space.id, module=CHILD)
    try:
        dying = str(other_host.wait_for("held")["reply"])
        fake_openai.script(Reply("Welcome, Sam."))  # type: ignore[attr-defined]
        book.enqueue(space.id, "Sam", "Hello?", shared=True)
        runner = SeatQueueRunner(runtime, book, space.id, openai_model())  # type: ignore[operator]
        with turn_locks(where).hold_answerer(space.id):  # the other host answers the space
            assert await runner.answer_waiting() is None
        other_host.kill()
        # the server drops the dead host's locks with its connection: a bounded wait
        assert await _answered_within(runner) == 1
        assert pg_store.get_message(dying).status is MessageStatus.CANCELLED
        assert pg_store.get_message(dying).meta.get("interrupted") is True
        assert book.queued(space.id) == []
        contents = [r.content for r in pg_store.list_messages(space.id)]
        assert "Hello?" in contents
        assert "Welcome, Sam." in contents
    finally:
        other_host.kill()
        book.close()
        await runtime.aclose()


async def _answered_within(runner: SeatQueueRunner) -> int:
    """Ask the runner to answer until it does, for at most 30 s (then the test fails)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        answered = await runner.answer_waiting()
        if answered:
            return answered
        await asyncio.sleep(0.05)
    raise AssertionError("the runner never took over the space")
