"""Several processes on one store, on the SQLite file and on a real PostgreSQL server: one
turn at a time per conversation, a killed writer's lock freed and its reply marked
interrupted, and racing writers never repeating a version."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from storage.backend import StorageTarget, Where, open_store, turn_locks
from storage.models import MessageStatus
from storage.turn_locks import TurnBusy
from tests.storage.processes import WAIT_S, Child
from tests.support.postgres_server import PostgresServer, fresh_schema_url

if TYPE_CHECKING:
    from storage.backend import AnyStore

CHILD = "tests.storage.backend_child"


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Where:
    if request.param == "sqlite":
        return tmp_path / "data" / "weaver.db"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return StorageTarget(tmp_path, fresh_schema_url(server))


@pytest.fixture
def store(where: Where) -> Iterator[AnyStore]:
    opened = open_store(where)
    yield opened
    opened.close()


def _named(where: Where) -> str:
    return str(where.url) if isinstance(where, StorageTarget) else str(where)


def _within_deadline(condition: Callable[[], bool]) -> bool:
    """Poll ``condition`` until it holds or :data:`WAIT_S` passes (then the test fails)."""
    import time

    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _marked_in_time(store: AnyStore, conversation_id: str) -> list[str]:
    """The replies marked interrupted once the store sees their writer gone (a server sees
    a killed process's connection end soon after), within the deadline."""
    marked: list[str] = []

    def found() -> bool:
        marked.extend(store.mark_interrupted_replies(conversation_id))
        return bool(marked)

    assert _within_deadline(found)
    return marked


def test_one_turn_at_a_time_per_conversation_and_others_are_free(
    store: AnyStore, where: Where
) -> None:
    first = store.create_conversation("ide-helper").id
    second = store.create_conversation("ide-helper").id
    locks, other_locks = turn_locks(where), turn_locks(where)
    with locks.hold(first):
        assert other_locks.busy(first)
        with pytest.raises(TurnBusy), other_locks.hold(first):
            pass
        with other_locks.hold(second):
            assert locks.busy(second)
    assert not other_locks.busy(first)
    with other_locks.hold(first):
        pass


def test_one_answerer_per_space_beside_its_turns(store: AnyStore, where: Where) -> None:
    space = store.create_conversation("mediator").id
    locks, other_locks = turn_locks(where), turn_locks(where)
    with locks.hold_answerer(space):
        with pytest.raises(TurnBusy), other_locks.hold_answerer(space):
            pass
        with other_locks.hold(space):  # the answerer's turns take the turn lock as any turn
            pass
    with other_locks.hold_answerer(space):
        pass


def test_a_writer_killed_mid_reply_frees_the_turn_and_its_reply_is_marked_interrupted(
    store: AnyStore, where: Where
) -> None:
    conversation = store.create_conversation("ide-helper").id
    child = Child("turn", _named(where), conversation, module=CHILD)
    try:
        reply = str(child.wait_for("held")["reply"])
        locks = turn_locks(where)
        assert locks.busy(conversation)
        assert store.mark_interrupted_replies(conversation) == []  # still being written
        assert store.get_message(reply).status is MessageStatus.STREAMING
    finally:
        child.kill()
    assert _within_deadline(lambda: not locks.busy(conversation))
    assert _marked_in_time(store, conversation) == [reply]
    marked = store.get_message(reply)
    assert marked.status is MessageStatus.CANCELLED
    assert marked.meta.get("interrupted") is True
    assert marked.content == "The answer begins"


def test_a_reply_streamed_on_a_fork_elsewhere_is_live_until_its_writer_dies(
    store: AnyStore, where: Where
) -> None:
    conversation = store.create_conversation("ide-helper").id
    child = Child("fork", _named(where), conversation, module=CHILD)
    try:
        reply = str(child.wait_for("held")["reply"])
        assert store.mark_interrupted_replies(conversation) == []  # no lock held, yet alive
        assert store.mark_interrupted_replies() == []
    finally:
        child.kill()
    assert _marked_in_time(store, conversation) == [reply]


def test_two_processes_adding_replies_under_one_message_never_repeat_a_version(
    store: AnyStore, where: Where
) -> None:
    conversation = store.create_conversation("ide-helper").id
    question = store.add_message(conversation, "user", "many answers?", None)
    count = 15
    children = [
        Child("siblings", _named(where), conversation, question.id, str(count), module=CHILD)
        for _ in range(2)
    ]
    try:
        for child in children:
            child.wait_for("ready")
        for child in children:
            child.send("go\n")
        for child in children:
            assert child.wait_for("done")["done"] == count
            assert child.finish() == 0
    finally:
        for child in children:
            child.kill()
    replies = store.children(question.id, conversation)
    assert sorted(r.version for r in replies) == list(range(1, 2 * count + 1))
