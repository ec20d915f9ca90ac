"""Fixtures for the storage tests: a real SQLite file per test, small tree builders, and the
stores of every backend that the contract suite (``test_interface*.py``) runs against."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore
from tests.support.postgres_server import PostgresServer, fresh_schema_url

StoreFactory = Callable[[Path, pytest.FixtureRequest], ConversationStore]
"""Opens a new, empty store; the folder is fresh and the backend's own to use (or ignore); the
request gives the backend's session fixtures (a server)."""


def _sqlite_store(folder: Path, request: pytest.FixtureRequest) -> ConversationStore:
    return SqliteConversationStore(folder / "conversations.sqlite")


def _postgres_store(folder: Path, request: pytest.FixtureRequest) -> ConversationStore:
    from storage.pg_store import PgConversationStore

    server: PostgresServer = request.getfixturevalue("postgres_server")
    return PgConversationStore(fresh_schema_url(server), pool_size=2)


STORE_FACTORIES: dict[str, StoreFactory] = {
    "sqlite": _sqlite_store,
    "postgresql": _postgres_store,
}
"""Every backend of :class:`storage.store.ConversationStore`, by name: the contract suite runs
once per entry. PostgreSQL's runs on a real server the suite starts (each store an empty
schema of its own), and skips with one line where PostgreSQL is not installed."""


@pytest.fixture(params=sorted(STORE_FACTORIES))
def open_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[], ConversationStore]]:
    """Opens fresh, empty stores of one backend (the test runs once per backend); each is
    closed after the test."""
    backend_factory = STORE_FACTORIES[request.param]

    def factory(folder: Path) -> ConversationStore:
        return backend_factory(folder, request)

    opened: list[ConversationStore] = []

    def open_new() -> ConversationStore:
        folder = tmp_path / f"{request.param}-{len(opened)}"
        folder.mkdir(parents=True)
        opened.append(factory(folder))
        return opened[-1]

    yield open_new
    for store in opened:
        store.close()


@pytest.fixture
def backend(open_store: Callable[[], ConversationStore]) -> ConversationStore:
    """A fresh, empty store of the backend under test, seen only through the protocol."""
    return open_store()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "conversations.sqlite"


@pytest.fixture
def store(db_path: Path) -> Iterator[SqliteConversationStore]:
    with SqliteConversationStore(db_path) as opened:
        yield opened


@pytest.fixture
def conversation(store: SqliteConversationStore) -> Conversation:
    return store.create_conversation("ide-helper", "Tree test")
