"""A conversation store whose disk is full: SQLite's own ``max_page_count`` makes every write
that needs one more page fail with SQLITE_FULL ("database or disk is full"), exactly as a full
disk does, without filling one."""

from __future__ import annotations

import sqlite3

from storage.sqlite_store import SqliteConversationStore

LIMIT_CODE = """
import sys
import storage.database as database

_configure = database.Database._configure

def _configure_full(self, conn):
    _configure(self, conn)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + SPARE}")

database.Database._configure = _configure_full
from weaver_tui.launch import main
sys.exit(main(sys.argv[1:]))
"""
"""``python -c`` code running the CLI on a store that may grow by ``SPARE`` pages only."""


def connection_of(store: SqliteConversationStore) -> sqlite3.Connection:
    return store._db._conn  # the pragma holds per connection: it must be the store's own


def fill_disk(store: SqliteConversationStore, spare_pages: int) -> None:
    """Let the store's file grow by ``spare_pages`` pages (of 4 KiB) and no more."""
    conn = connection_of(store)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")


def free_disk(store: SqliteConversationStore) -> None:
    connection_of(store).execute("PRAGMA max_page_count = 1073741823")


def integrity(store: SqliteConversationStore) -> str:
    return str(connection_of(store).execute("PRAGMA integrity_check").fetchone()[0])
