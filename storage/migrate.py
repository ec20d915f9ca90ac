"""Copy a whole store between the SQLite file and a PostgreSQL server, and check the copy.

``weaver-tui store migrate --to postgresql://...`` copies the data folder's SQLite file to the
server; ``--from`` copies the other way. Every table goes: conversations, every record of every
branch with its version, remembered branches, accepted patches, the seats of shared spaces
and the messages waiting at them, and paper-pilot's remembered facts (the SQLite side keeps
them in a file of their own, :data:`storage.paths.MEMORY_DB`). Ids, versions, times and meta
are copied as they are; a fact is known by its text and the reply it came from.

A copy is idempotent: a row already in the target (same key) is left alone, so a migration
that stopped half way is simply run again. Each conversation is copied in one transaction of
the target. Afterwards the counts are checked per conversation and table: every row of the
source is in the target, or :func:`migrate` raises a :class:`StorageError` naming what differs.
"""

from __future__ import annotations

import logging
import sqlite3
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from storage.facts_schema import SQLITE_FACTS_SCHEMA
from storage.paths import MEMORY_DB
from storage.pg_url import redact_url
from storage.store import StorageError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Table:
    """A table copied by a migration: its columns, its key, and how its rows belong to a
    conversation (``None``: rows copied after the conversations, all at once)."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    conversation_column: str | None = "conversation_id"
    order: str = ""


CONVERSATIONS = Table(
    "conversations",
    ("id", "title", "profile", "created_at", "updated_at", "meta"),
    ("id",),
    conversation_column="id",
)
MESSAGES = Table(
    "messages",
    (
        "id",
        "conversation_id",
        "parent_id",
        "role",
        "content",
        "depth",
        "version",
        "status",
        "created_at",
        "meta",
        "tool_text",
    ),
    ("id",),
    order="depth, created_at",
)
BRANCH_CHOICES = Table(
    "branch_choices",
    ("conversation_id", "parent_key", "child_id"),
    ("conversation_id", "parent_key"),
)
ACCEPTED_PATCHES = Table(
    "accepted_patches",
    (
        "record_id",
        "conversation_id",
        "patch_id",
        "file",
        "base_sha256",
        "new_sha256",
        "accepted_at",
        "mac",  # carried as it is: a row verifies after the move only if it did before
    ),
    ("record_id",),
)
SPACE_SEATS = Table(
    "space_seats",
    ("token", "conversation_id", "participant", "created_at", "revoked_at", "connections", "mac"),
    ("token",),
)
SEAT_MESSAGES = Table(
    "seat_messages",
    (
        "id",
        "conversation_id",
        "participant",
        "content",
        "shared",
        "status",
        "record_id",
        "error",
        "created_at",
        "mac",  # carried as it is, with the id it covers
    ),
    ("id",),
    order="id",
)

STATEMENT_ANSWERS = Table(
    "statement_answers",
    (
        "record_id",
        "conversation_id",
        "participant",
        "participant_key",
        "answer",
        "critique",
        "shared",
        "answered_at",
        "mac",  # carried as it is: an answer verifies after the move only if it did before
    ),
    ("record_id", "participant_key"),
)
CONSENT_REQUESTS = Table(
    "consent_requests",
    (
        "call_id",
        "conversation_id",
        "participant",
        "participant_key",
        "tool",
        "text",
        "decision",
        "edited",
        "asked_at",
        "answered_at",
        "withdrawn_at",
        "mac",  # carried as it is: an answer verifies after the move only if it did before
    ),
    ("call_id", "participant_key"),
)

TABLES: tuple[Table, ...] = (
    CONVERSATIONS,
    MESSAGES,
    BRANCH_CHOICES,
    ACCEPTED_PATCHES,
    SPACE_SEATS,
    SEAT_MESSAGES,
    STATEMENT_ANSWERS,
    CONSENT_REQUESTS,
)
"""In the order a conversation's rows are copied (a row's references come before it)."""


FACT_COLUMNS = ("text", "conversation_id", "message_id", "created_at")
"""A remembered fact's columns (its id is the target's own)."""

Fact = tuple[Any, ...]


class Side(Protocol):
    """One end of a migration: the rows of a table, and a transaction to insert into."""

    shown: str

    def facts(self) -> list[Fact]: ...
    def add_facts(self, facts: Sequence[Fact]) -> None: ...

    def rows(self, table: Table, conversation_id: str | None = None) -> list[tuple[Any, ...]]: ...
    def counts(self, table: Table) -> Counter[str]: ...
    def transaction(self) -> Any: ...
    def insert(self, table: Table, rows: Sequence[tuple[Any, ...]]) -> None: ...
    def finish(self) -> None: ...
    def close(self) -> None: ...


def _select(table: Table, mark: str, conversation_id: str | None) -> tuple[str, tuple[Any, ...]]:
    sql = f"SELECT {', '.join(table.columns)} FROM {table.name}"
    params: tuple[Any, ...] = ()
    if conversation_id is not None and table.conversation_column:
        sql += f" WHERE {table.conversation_column} = {mark}"
        params = (conversation_id,)
    if table.order:
        sql += f" ORDER BY {table.order}"
    return sql, params


def _count_sql(table: Table) -> str:
    column = table.conversation_column or "conversation_id"
    return f"SELECT {column}, count(*) FROM {table.name} GROUP BY {column}"


class SqliteSide:
    """The SQLite file (its schema brought up to date first)."""

    def __init__(self, path: Path) -> None:
        from storage.sqlite_store import SqliteConversationStore

        SqliteConversationStore(path).close()  # creates or migrates the tables
        self.shown = str(path)
        self._memory = path.parent / MEMORY_DB
        self._conn = sqlite3.connect(path, isolation_level=None)
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute("PRAGMA busy_timeout = 10000")

    def rows(self, table: Table, conversation_id: str | None = None) -> list[tuple[Any, ...]]:
        sql, params = _select(table, "?", conversation_id)
        if table.order:
            sql += ", rowid"  # the order written in, among records of one depth and time
        return [tuple(row) for row in self._conn.execute(sql, params)]

    def counts(self, table: Table) -> Counter[str]:
        return Counter({str(k): int(n) for k, n in self._conn.execute(_count_sql(table))})

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def insert(self, table: Table, rows: Sequence[tuple[Any, ...]]) -> None:
        marks = ", ".join("?" * len(table.columns))
        self._conn.executemany(
            f"INSERT OR IGNORE INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})",
            rows,
        )

    def finish(self) -> None:
        pass

    def facts(self) -> list[Fact]:
        if not self._memory.is_file():
            return []
        with closing(sqlite3.connect(self._memory)) as conn:
            conn.executescript(SQLITE_FACTS_SCHEMA)
            rows = conn.execute(f"SELECT {', '.join(FACT_COLUMNS)} FROM facts ORDER BY id")
            return [tuple(row) for row in rows]

    def add_facts(self, facts: Sequence[Fact]) -> None:
        self._memory.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(self._memory)) as conn, conn:
            conn.executescript(SQLITE_FACTS_SCHEMA)
            conn.executemany(
                f"INSERT INTO facts ({', '.join(FACT_COLUMNS)}) VALUES (?, ?, ?, ?)", facts
            )

    def close(self) -> None:
        self._conn.close()


class PgSide:
    """A PostgreSQL database (its tables created first)."""

    def __init__(self, url: str) -> None:
        from storage.backend import postgres_module

        database = postgres_module("storage.pg_database")
        database.PgDatabase(url, pool_size=1).close()  # creates or migrates the tables
        self.shown = redact_url(url)
        self._conn = database.connect(url)

    def rows(self, table: Table, conversation_id: str | None = None) -> list[tuple[Any, ...]]:
        sql, params = _select(table, "%s", conversation_id)
        if table.order:
            sql += ", seq" if table is MESSAGES else ""
        return [tuple(row) for row in self._conn.execute(sql, params)]

    def counts(self, table: Table) -> Counter[str]:
        return Counter({str(k): int(n) for k, n in self._conn.execute(_count_sql(table))})

    @contextmanager
    def transaction(self) -> Iterator[None]:
        from storage.pg_schema import WRITE_LOCK

        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", WRITE_LOCK)
            yield

    def insert(self, table: Table, rows: Sequence[tuple[Any, ...]]) -> None:
        marks = ", ".join(["%s"] * len(table.columns))
        with self._conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})"
                " ON CONFLICT DO NOTHING",
                rows,
            )

    def finish(self) -> None:
        """Seat messages were copied with their ids: the next one comes after them."""
        self._conn.execute(
            "SELECT setval(pg_get_serial_sequence('seat_messages', 'id'),"
            " greatest((SELECT max(id) FROM seat_messages), 1))"
        )

    def facts(self) -> list[Fact]:
        rows = self._conn.execute(f"SELECT {', '.join(FACT_COLUMNS)} FROM facts ORDER BY id")
        return [tuple(row) for row in rows]

    def add_facts(self, facts: Sequence[Fact]) -> None:
        with self._conn.transaction(), self._conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO facts ({', '.join(FACT_COLUMNS)}) VALUES (%s, %s, %s, %s)", facts
            )

    def close(self) -> None:
        self._conn.close()


def _fact_key(fact: Fact) -> tuple[Any, ...]:
    return tuple(fact[:3])


@dataclass
class Report:
    """What a migration copied: rows of each table found in the source, per table."""

    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        counted = ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.rows.items())
        return f"copied {self.source} to {self.target}: {counted} (counts checked)"


def copy_rows(source: Side, target: Side) -> Report:
    """Copy every table from ``source`` to ``target`` (idempotent), then check the counts."""
    report = Report(source.shown, target.shown)
    conversations = [row[0] for row in source.rows(CONVERSATIONS)]
    for conversation_id in conversations:
        with target.transaction():
            for table in TABLES:
                rows = source.rows(table, conversation_id)
                target.insert(table, rows)
    target.finish()
    for table in TABLES:
        wanted, found = source.counts(table), target.counts(table)
        short = {k: (n, found.get(k, 0)) for k, n in wanted.items() if found.get(k, 0) < n}
        if short:
            key, (n, m) = next(iter(short.items()))
            raise StorageError(
                f"The copy of {table.name} is short in {len(short)} conversation(s) (in {key}: "
                f"{m} of {n}); run the migration again, or look at the target for rows with "
                "the same ids."
            )
        report.rows[table.name] = sum(wanted.values())
    wanted_facts = source.facts()
    present = {_fact_key(fact) for fact in target.facts()}
    target.add_facts([fact for fact in wanted_facts if _fact_key(fact) not in present])
    present = {_fact_key(fact) for fact in target.facts()}
    missing = [fact for fact in wanted_facts if _fact_key(fact) not in present]
    if missing:
        raise StorageError(
            f"The copy of the remembered facts is short ({len(missing)} of {len(wanted_facts)}); "
            "run the migration again."
        )
    report.rows["facts"] = len(wanted_facts)
    logger.info("migrated %s", report.summary())
    return report


def migrate(source: Side, target: Side) -> Report:
    """:func:`copy_rows`, closing both sides."""
    try:
        return copy_rows(source, target)
    finally:
        source.close()
        target.close()
