"""Which backend holds the data, and the one place that opens its parts.

A :class:`StorageTarget` is the data folder plus ``storage.url``: without a URL (the default)
everything is in the SQLite file of the data folder; with a PostgreSQL URL the conversations,
seats, turn locks, change signal and graph state are on that server. Above ``storage/`` the
code calls these factories and never names a backend; every factory also takes a plain
``Path`` (the SQLite file itself), as the parts did before there was a choice.
"""

from __future__ import annotations

import os
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.pg_url import check_storage_url, is_postgres_url, redact_url
from storage.store import StorageError

if TYPE_CHECKING:
    from storage.change_signal import StoreChanges
    from storage.pg_changes import PgStoreChanges
    from storage.pg_seats import PgSeatBook
    from storage.pg_store import PgConversationStore
    from storage.seats import SeatBook
    from storage.sqlite_store import SqliteConversationStore
    from storage.turn_locks import TurnLocks

    AnyStore = SqliteConversationStore | PgConversationStore
    AnySeatBook = SeatBook | PgSeatBook
    AnyChanges = StoreChanges | PgStoreChanges

DB_FILE = "weaver.db"
"""The SQLite file's name in the data folder."""


@dataclass(frozen=True)
class StorageTarget:
    """Where the data lives: ``url`` (a PostgreSQL URL) if given, else ``data_dir / DB_FILE``."""

    data_dir: Path
    url: str | None = None

    def __post_init__(self) -> None:
        if self.url:
            check_storage_url(self.url)

    @property
    def is_postgres(self) -> bool:
        return is_postgres_url(self.url)

    @property
    def sqlite_path(self) -> Path:
        return Path(self.data_dir).expanduser() / DB_FILE

    @property
    def shown(self) -> str:
        """Where the data is, as it may be shown (a URL's password as ``***``)."""
        return redact_url(self.url) if self.url else str(self.sqlite_path)


Where = StorageTarget | Path
"""A storage target, or the SQLite file itself."""


MISSING_POSTGRES = (
    "storage.url names a PostgreSQL server, but this weaver-tui has no PostgreSQL support "
    "installed; install it with: pip install 'weaver-tui[postgres]' (or empty storage.url "
    "for the SQLite file)."
)


def postgres_module(module: str) -> Any:
    """A ``storage.pg_*`` module, or one sentence when psycopg is not installed."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise StorageError(MISSING_POSTGRES) from None


def _url(where: Where) -> str | None:
    return where.url if isinstance(where, StorageTarget) and where.is_postgres else None


def _path(where: Where) -> Path:
    return where.sqlite_path if isinstance(where, StorageTarget) else Path(where)


STORAGE_URL_VARIABLE = "WEAVER_STORAGE__URL"
"""``storage.url`` as an environment variable: how the processes a host starts (seats) and the
parts that see only the data folder (a profile's memory) learn where the data lives."""


def configured_url() -> str | None:
    """The PostgreSQL URL this process was given (``WEAVER_STORAGE__URL``), if any."""
    url = os.environ.get(STORAGE_URL_VARIABLE, "").strip()
    return url if is_postgres_url(url) else None


def sqlite_file(where: Where) -> Path | None:
    """The SQLite file of ``where``; ``None`` on a PostgreSQL server."""
    return None if _url(where) else _path(where)


def open_store(where: Where) -> AnyStore:
    """The conversation store (its tables created or migrated)."""
    if url := _url(where):
        store: PgConversationStore = postgres_module("storage.pg_store").PgConversationStore(url)
        return store
    from storage.sqlite_store import SqliteConversationStore

    return SqliteConversationStore(_path(where))


def open_seat_book(where: Where) -> AnySeatBook:
    """The seats of shared spaces and the messages waiting at them."""
    if url := _url(where):
        book: PgSeatBook = postgres_module("storage.pg_seats").PgSeatBook(url)
        return book
    from storage.seats import SeatBook

    return SeatBook(_path(where))


def open_changes(where: Where, conversation_id: str | None = None) -> AnyChanges:
    """The change signal: another process's (or host's) commits. With ``conversation_id``
    the server's signal answers for that conversation only (the file's is for all)."""
    if url := _url(where):
        changes: PgStoreChanges = postgres_module("storage.pg_changes").PgStoreChanges(
            url, conversation_id
        )
        return changes
    from storage.change_signal import StoreChanges

    return StoreChanges(_path(where))


def turn_locks(where: Where) -> TurnLocks:
    """One turn at a time per conversation, across processes (and hosts, on a server)."""
    if url := _url(where):
        locks: TurnLocks = postgres_module("storage.pg_turn_locks").PgTurnLocks(url)
        return locks
    from storage.turn_locks import FileTurnLocks

    folder = where.data_dir if isinstance(where, StorageTarget) else Path(where).parent
    return FileTurnLocks(Path(folder).expanduser())


def open_checkpointer(where: Where) -> AbstractAsyncContextManager[Any]:
    """LangGraph's checkpointer (an async context manager), with the scrubbing serializer."""
    if url := _url(where):
        opened: AbstractAsyncContextManager[Any] = postgres_module(
            "storage.pg_checkpointer"
        ).open_pg_checkpointer(url)
        return opened
    from storage.checkpointer import open_checkpointer as open_file_checkpointer

    folder = where.data_dir if isinstance(where, StorageTarget) else Path(where).parent
    return open_file_checkpointer(Path(folder).expanduser())
