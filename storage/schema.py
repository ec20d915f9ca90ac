"""The conversation database's tables, and the migrations that bring any older file up to date.

``PRAGMA user_version`` is the schema version: migration ``n`` (1-based position in
:data:`MIGRATIONS`) moves a file from version ``n - 1`` to ``n``. Append new migrations; never
edit a released one.

Design notes:

- ``messages.parent_id`` references ``messages(id)`` *without* a cascade: a branch is deleted
  in one statement (a recursive CTE collects the subtree), so a 10,000-deep chain never hits
  SQLite's trigger-depth limit, and the foreign key is still checked at the statement's end.
- ``status`` is a column (the source of truth for :class:`storage.models.MessageStatus`), so
  leftover ``streaming`` replies are found by an index, and the full-text index skips a reply
  while it streams: re-tokenising a growing reply at every flush would make streaming
  quadratic. The reply is indexed when its status leaves ``streaming``. The index's external
  content is the view ``messages_searchable`` (records not streaming), so FTS5's own
  ``integrity-check`` and ``rebuild`` agree with what the triggers maintain. The update trigger
  is one trigger on purpose: SQLite runs several triggers in no promised order, and the
  index must forget the old text before it learns the new.
- ``tool_text`` holds tool-call names and arguments (and a tool record's tool name) as text,
  so search finds what the agent did, not only what it said.
- ``writer_pid`` is the process that last wrote a streaming reply, so a second process opening
  the same file does not mark a reply that is still being streamed as interrupted.
- ``branch_choices`` remembers which child was chosen under every parent (``parent_key`` is
  the parent id, or ``''`` for the roots) so reopening returns to the exact branch.
"""

from __future__ import annotations

import re
import sqlite3

SCHEMA_V1 = """
CREATE TABLE conversations (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    profile     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    meta        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX conversations_by_updated ON conversations (updated_at DESC);

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES messages (id),
    role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content         TEXT NOT NULL,
    depth           INTEGER NOT NULL,
    version         INTEGER NOT NULL,
    status          TEXT NOT NULL DEFAULT 'complete'
                    CHECK (status IN ('complete', 'streaming', 'cancelled', 'error')),
    created_at      TEXT NOT NULL,
    meta            TEXT NOT NULL DEFAULT '{}',
    tool_text       TEXT NOT NULL DEFAULT '',
    writer_pid      INTEGER
);
CREATE INDEX messages_by_parent ON messages (conversation_id, parent_id, version);
CREATE INDEX messages_parent_fk ON messages (parent_id);
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE TABLE branch_choices (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    parent_key      TEXT NOT NULL,
    child_id        TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    PRIMARY KEY (conversation_id, parent_key)
) WITHOUT ROWID;
CREATE INDEX branch_choices_child ON branch_choices (child_id);

CREATE VIEW messages_searchable AS
    SELECT rowid AS row_key, content, tool_text FROM messages WHERE status != 'streaming';
CREATE VIRTUAL TABLE messages_fts USING fts5 (
    content, tool_text,
    content = 'messages_searchable', content_rowid = 'row_key',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN new.status != 'streaming' BEGIN
    INSERT INTO messages_fts (rowid, content, tool_text)
    VALUES (new.rowid, new.content, new.tool_text);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
WHEN old.status != 'streaming' BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content, tool_text)
    VALUES ('delete', old.rowid, old.content, old.tool_text);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, tool_text, status ON messages
WHEN old.status != 'streaming' OR new.status != 'streaming' BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content, tool_text)
    SELECT 'delete', old.rowid, old.content, old.tool_text WHERE old.status != 'streaming';
    INSERT INTO messages_fts (rowid, content, tool_text)
    SELECT new.rowid, new.content, new.tool_text WHERE new.status != 'streaming';
END;
"""

SCHEMA_V2 = """
CREATE INDEX IF NOT EXISTS messages_user_by_time ON messages (created_at) WHERE role = 'user';
"""
"""The user's prompts, newest first, without reading the rest (the composer's history)."""

SCHEMA_V3 = """
CREATE TABLE IF NOT EXISTS space_seats (
    token           TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    participant     TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    revoked_at      TEXT,
    connections     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS space_seats_by_conversation ON space_seats (conversation_id);

CREATE TABLE IF NOT EXISTS seat_messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    participant     TEXT NOT NULL,
    content         TEXT NOT NULL,
    shared          INTEGER NOT NULL,
    status          TEXT NOT NULL DEFAULT 'waiting'
                    CHECK (status IN ('waiting', 'answering', 'failed')),
    record_id       TEXT,
    error           TEXT,
    created_at      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS seat_messages_in_order ON seat_messages (conversation_id, id);
"""
"""The seats of a shared space (a link's token per participant) and the messages their seats
sent that the host has not answered yet (see :mod:`storage.seats`). ``IF NOT EXISTS``: a file
whose version was set back by hand still migrates."""

SCHEMA_V4 = """
CREATE TABLE IF NOT EXISTS accepted_patches (
    record_id       TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    patch_id        TEXT NOT NULL,
    file            TEXT NOT NULL,
    base_sha256     TEXT,
    new_sha256      TEXT NOT NULL,
    accepted_at     TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS accepted_patches_by_conversation ON accepted_patches (conversation_id);
"""
"""The patches the user accepted here (see :mod:`storage.accepted_patches`): what undo and
redo may write back. Export does not carry them and import does not create them."""

SCHEMA_V5 = """
CREATE TABLE IF NOT EXISTS statement_answers (
    record_id       TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    participant     TEXT NOT NULL,
    participant_key TEXT NOT NULL,
    answer          TEXT NOT NULL CHECK (answer IN ('agree', 'partly', 'disagree')),
    critique        TEXT NOT NULL DEFAULT '',
    shared          INTEGER NOT NULL DEFAULT 0,
    answered_at     TEXT NOT NULL,
    PRIMARY KEY (record_id, participant_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS statement_answers_by_conversation
    ON statement_answers (conversation_id);
"""
"""Each participant's answer to a statement of a shared space, given at their own seat (see
:mod:`storage.statement_answers`). Export does not carry them and import does not create them."""

SCHEMA_V6 = """
CREATE TABLE IF NOT EXISTS consent_requests (
    call_id         TEXT NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    participant     TEXT NOT NULL,
    participant_key TEXT NOT NULL,
    tool            TEXT NOT NULL,
    text            TEXT NOT NULL,
    decision        TEXT CHECK (decision IN ('allow', 'edit', 'refuse')),
    edited          TEXT NOT NULL DEFAULT '',
    asked_at        TEXT NOT NULL,
    answered_at     TEXT,
    withdrawn_at    TEXT,
    PRIMARY KEY (call_id, participant_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS consent_requests_by_conversation
    ON consent_requests (conversation_id);
"""
"""A participant's consent, asked before the mediator shares what draws on their private words
(see :mod:`storage.consents`). Export does not carry them and import does not create them."""

SCHEMA_V7 = """
ALTER TABLE accepted_patches ADD COLUMN mac TEXT;
ALTER TABLE consent_requests ADD COLUMN mac TEXT;
ALTER TABLE space_seats ADD COLUMN mac TEXT;
ALTER TABLE seat_messages ADD COLUMN mac TEXT;
ALTER TABLE statement_answers ADD COLUMN mac TEXT;
"""
"""Each accepted patch's, consent answer's, seat's, queued seat message's and statement answer's MAC under the user's own key (see
:mod:`storage.authority`); rows from before carry none and are history."""

MIGRATIONS: list[str] = [
    SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7,
]  # fmt: skip
"""Scripts in order; the file's ``user_version`` counts how many have been applied."""

LATEST_VERSION = len(MIGRATIONS)

OUR_TABLES = {
    "conversations",
    "messages",
    "branch_choices",
    "messages_fts",
    "space_seats",
    "seat_messages",
    "accepted_patches",
    "statement_answers",
    "consent_requests",
}
"""Views are not tables: ``messages_searchable`` needs no entry."""


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def foreign_tables(conn: sqlite3.Connection) -> list[str]:
    """Tables in the file that are not weaver's: a sign the path names another program's DB."""
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return [
        name for (name,) in rows if name not in OUR_TABLES and not name.startswith("messages_fts")
    ]


def migrate(conn: sqlite3.Connection) -> tuple[int, int]:
    """Apply the missing migrations in one immediate transaction; return (from, to) versions.

    The caller has checked that the file is not newer than this code. Two processes opening a
    fresh file at once are serialised by the write lock, and the second sees the first's work.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        start = schema_version(conn)
        for script in MIGRATIONS[start:]:
            for statement in _statements(script):
                if not _column_present(conn, statement):
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return start, LATEST_VERSION


_ADD_COLUMN = re.compile(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", re.IGNORECASE)


def _column_present(conn: sqlite3.Connection, statement: str) -> bool:
    """The statement adds a column the table already has (SQLite has no ``IF NOT EXISTS`` for
    columns, and a file whose version was set back replays its scripts)."""
    found = _ADD_COLUMN.match(statement)
    if found is None:
        return False
    table, column = found.groups()
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_info({table})"))


def _statements(script: str) -> list[str]:
    """Split a script into complete statements (``executescript`` would commit our transaction)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
