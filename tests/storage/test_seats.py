"""Seats of a shared space and the messages waiting at them, and the change signal another
process's commit raises: on a real SQLite file and on a real PostgreSQL server (each test runs
once per backend, through the factories of :mod:`storage.backend`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from storage.backend import StorageTarget, Where, open_changes, open_seat_book, open_store
from storage.seats import SeatBook
from tests.support.postgres_server import PostgresServer, fresh_schema_url

if TYPE_CHECKING:
    from storage.backend import AnyChanges, AnySeatBook, AnyStore


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Where:
    """Where the test's data lives: the SQLite file, or an empty schema on the server."""
    if request.param == "sqlite":
        return tmp_path / "data" / "weaver.db"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return StorageTarget(tmp_path, fresh_schema_url(server))


@pytest.fixture
def store(where: Where) -> Iterator[AnyStore]:
    opened = open_store(where)
    yield opened
    opened.close()


@pytest.fixture
def book(store: AnyStore, where: Where) -> Iterator[AnySeatBook]:
    seats = open_seat_book(where)
    yield seats
    seats.close()


def _space(store: AnyStore) -> str:
    return store.create_conversation("mediator", "t", meta={"participants": ["Alex", "Sam"]}).id


def _changed_soon(changes: AnyChanges) -> bool:
    """The change is seen before a deadline (a failed assertion past it, never a sleep)."""
    return asyncio.run(asyncio.wait_for(changes.wait(), 30))


def test_each_participant_gets_an_unguessable_token_of_their_own(
    store: AnyStore, book: AnySeatBook
) -> None:
    space = _space(store)
    alex, sam = book.open_seats(space, ["Alex", "Sam"])
    assert (alex.participant, sam.participant) == ("Alex", "Sam")
    assert alex.token != sam.token
    assert len(alex.token) >= 43
    assert book.seat_for(alex.token) == alex
    assert book.seat_for(sam.token + "x") is None
    assert book.seat_for("") is None
    # opening again keeps the links already given out
    assert book.open_seats(space, ["Alex", "Sam"]) == [alex, sam]


def test_a_seat_token_opens_only_its_own_space(store: AnyStore, book: AnySeatBook) -> None:
    first, second = _space(store), _space(store)
    (alex_first,) = book.open_seats(first, ["Alex"])
    (alex_second,) = book.open_seats(second, ["Alex"])
    assert alex_first.token != alex_second.token
    assert book.seat_for(alex_first.token).conversation_id == first  # type: ignore[union-attr]


def test_closing_a_space_revokes_its_links_and_reopening_gives_new_ones(
    store: AnyStore, book: AnySeatBook
) -> None:
    space = _space(store)
    (alex,) = book.open_seats(space, ["Alex"])
    assert book.close_space(space) == 1
    assert book.seat_for(alex.token) is None
    assert book.seats(space) == []
    (again,) = book.open_seats(space, ["Alex"])
    assert again.token != alex.token


def test_connections_are_counted_per_seat(store: AnyStore, book: AnySeatBook) -> None:
    space = _space(store)
    alex, _ = book.open_seats(space, ["Alex", "Sam"])
    book.connected(alex.token, +1)
    book.connected(alex.token, +1)
    book.connected(alex.token, -1)
    assert {s.participant: s.connections for s in book.seats(space)} == {"Alex": 1, "Sam": 0}
    book.forget_connections(space)
    assert {s.connections for s in book.seats(space)} == {0}


def test_messages_wait_in_order_and_a_seat_sees_only_its_own(
    store: AnyStore, book: AnySeatBook
) -> None:
    space = _space(store)
    first = book.enqueue(space, "Sam", "just for the mediator", shared=False)
    second = book.enqueue(space, "Alex", "for everyone", shared=True)
    assert [q.id for q in book.queued(space)] == [first, second]
    assert [q.content for q in book.queued(space, "Alex")] == ["for everyone"]
    assert book.next_in_line(space).id == first  # type: ignore[union-attr]
    book.mark_answering(first, "record-1")
    assert book.next_in_line(space).record_id == "record-1"  # type: ignore[union-attr]
    book.mark_answered(first)
    book.mark_failed(second, "The mediator could not be reached.")
    assert book.next_in_line(space) is None
    (failed,) = book.queued(space, "Alex")
    assert (failed.status, failed.error) == ("failed", "The mediator could not be reached.")


def test_a_message_being_answered_comes_before_older_waiting_ones(
    store: AnyStore, book: AnySeatBook
) -> None:
    space = _space(store)
    first = book.enqueue(space, "Sam", "one", shared=True)
    second = book.enqueue(space, "Sam", "two", shared=True)
    book.mark_answering(second)
    assert book.next_in_line(space).id == second  # type: ignore[union-attr]
    book.mark_answered(second)
    assert book.next_in_line(space).id == first  # type: ignore[union-attr]


def test_the_change_signal_sees_a_commit_by_another_process(store: AnyStore, where: Where) -> None:
    space = _space(store)
    changes = open_changes(where)
    try:
        assert not changes.changed()
        script = (
            "import sys; from pathlib import Path; "
            "from storage.backend import StorageTarget, open_seat_book; "
            "w = sys.argv[1]; "
            "b = open_seat_book(StorageTarget(Path('.'), w) if '://' in w else Path(w)); "
            "b.enqueue(sys.argv[2], 'Sam', 'hi', True); b.close()"
        )
        named = where.url if isinstance(where, StorageTarget) else str(where)
        subprocess.run([sys.executable, "-c", script, str(named), space], check=True)
        assert _changed_soon(changes)
        assert not changes.changed()
        store.add_message(space, "user", "hello", None)  # this process's own store, too
        assert _changed_soon(changes)
    finally:
        changes.close()


def test_a_signal_for_one_conversation_sees_its_changes(store: AnyStore, where: Where) -> None:
    followed, other = _space(store), _space(store)
    changes = open_changes(where, followed)
    try:
        store.add_message(other, "user", "elsewhere", None)
        store.add_message(followed, "user", "here", None)
        assert _changed_soon(changes)
        book = open_seat_book(where)
        try:
            book.enqueue(followed, "Sam", "a seat's message", shared=True)
        finally:
            book.close()
        assert _changed_soon(changes)
    finally:
        changes.close()


def test_waiting_for_a_change_ends_when_asked_to_stop(store: AnyStore, where: Where) -> None:
    changes = open_changes(where)

    async def stopped() -> bool:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_soon(stop.set)
        return await asyncio.wait_for(changes.wait(stop), 30)

    try:
        assert asyncio.run(stopped()) is False
    finally:
        changes.close()


def test_an_older_database_gains_the_seat_tables(tmp_path: Path) -> None:
    import sqlite3

    from storage.schema import LATEST_VERSION, MIGRATIONS

    path = tmp_path / "old.db"
    raw = sqlite3.connect(path)
    for script in MIGRATIONS[:2]:
        raw.executescript(script)
    raw.execute("PRAGMA user_version = 2")
    raw.close()
    book = SeatBook(path)
    book.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone() == (LATEST_VERSION,)
    assert raw.execute("SELECT count(*) FROM seat_messages").fetchone() == (0,)
    raw.close()
