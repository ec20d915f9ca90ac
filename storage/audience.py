"""Who may read a record: the viewer filter of the store's queries, written in SQL.

A conversation with several participants (the mediator's shared space) keeps each record's
audience in its meta: ``visibility`` is ``"shared"`` (everyone), a participant's name (that
person only) or absent (the agent's own working: tool calls, tool results, notes); a user
record also names its ``sender``, who always reads their own words. A user record with neither
key was said to everyone.

A *viewer* is ``None`` (the facilitator, who reads everything), ``"shared"`` (what everyone
reads) or a participant's name. The condition is part of each query, so a participant's view
never loads another person's private records into the process at all. Names compare without
regard to case or runs of spaces, as participant names do everywhere else.

A record still streaming is nobody's but the facilitator's, whatever its meta says so far: a
reply's audience is known only once it is complete (a reply without a delivery tool goes to
whoever spoke, decided when it ends), so a participant never reads, even for a moment, words
that end up private to someone else.

A record a viewer may read reaches them with its words and only the meta keys of
:data:`READER_META` (:func:`reader_rows`): what describes that record and its audience. Meta
the agent's side derives from the whole conversation, whoever could read it (the summary of
older turns stored on the last record it covers, the model's reasoning beside a reply to one
person, the turn's bookkeeping), is the facilitator's alone, and so is every key added later
until it is listed here on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the launch's first frame reads this module's names, not SQLite
    import sqlite3

Viewer = str | None
"""``None``: everything; ``"shared"``: the shared channel; else a participant's name."""

EVERYONE = "shared"
"""The visibility of what every participant reads."""


READER_META = frozenset(
    {
        # who said it and who may read it
        "sender", "visibility", "recipient",
        # a delivery or a statement: the words delivered and what they are
        "name", "tool_call_id", "delivered_by", "delivered_content", "kind", "statement",
        "statement_version", "topic", "topics", "revises", "reflects",
        # how the record ended, and files its sender attached to it
        "error", "outcome", "interrupted", "attachments",
        # which model wrote it and what it cost (no words)
        "provider", "model", "profile", "latency_ms", "duration_ms", "usage", "turn_usage",
    }
)  # fmt: skip
"""The meta keys of a record a viewer reads (an allowlist: any other key stays unread)."""


def reader_meta_text(meta: str) -> str:
    """``meta`` (a record's stored meta JSON text) with only the keys of :data:`READER_META`."""
    if not meta or meta == "{}":
        return meta
    decoded = json.loads(meta)
    if not isinstance(decoded, dict):
        return "{}"
    kept = {key: value for key, value in decoded.items() if key in READER_META}
    return json.dumps(kept, ensure_ascii=False) if kept else "{}"


def reader_rows(rows: Iterable[Sequence[Any]]) -> Iterator[tuple[Any, ...]]:
    """Rows of a viewer's query (the fields of :class:`storage.rows.MessageRow`, meta last)
    with each meta cut to :data:`READER_META`: what every store hands a viewer."""
    for row in rows:
        *fields, meta = row
        yield (*fields, reader_meta_text(meta))


def viewer_key(viewer: str) -> str:
    """The form names are compared in: spaces collapsed, lower case (every letter's, not only
    A-Z's)."""
    return " ".join(viewer.split()).lower()


NAME_KEY_SQL = "weaver_name_key"
"""The SQL function the viewer filter compares stored names with: Python's ``lower`` (as
:func:`viewer_key` lowers the viewer), registered on each connection of the store
(:func:`register_name_key`). SQLite's own ``lower`` changes A-Z only, so a participant named
``Émile`` would not read their own records (PostgreSQL's follows the server's locale:
:mod:`storage.pg_audience` maps the letters itself)."""


def _name_key(value: object) -> str | None:
    return value.lower() if isinstance(value, str) else None


def register_name_key(conn: sqlite3.Connection) -> None:
    """Make :data:`NAME_KEY_SQL` callable in ``conn``'s queries."""
    conn.create_function(NAME_KEY_SQL, 1, _name_key, deterministic=True)


def visible_condition(alias: str = "m", param: str = ":viewer") -> str:
    """An SQL condition, true for a record of ``alias`` (a ``messages`` row) the viewer may
    read (1, else 0: never NULL); ``param`` (a named or numbered parameter) holds
    :func:`viewer_key` of the viewer."""
    meta = f"{alias}.meta"
    visibility = f"json_extract({meta}, '$.visibility')"
    sender = f"json_extract({meta}, '$.sender')"
    return (
        f"({alias}.status != 'streaming' AND "
        f"(coalesce({visibility}, CASE WHEN {alias}.role = 'user' "
        f"THEN coalesce({sender}, '{EVERYONE}') END) = '{EVERYONE}'"
        f" OR {NAME_KEY_SQL}({visibility}) = {param}"
        f" OR ({alias}.role = 'user' AND {NAME_KEY_SQL}({sender}) = {param}))) IS 1"
    )


def conversation_condition(
    conversation_alias: str, message_alias: str = "m", param: str = ":viewer"
) -> str:
    """An SQL condition for queries across conversations: a record of a conversation without
    participants that names no audience (no ``visibility``, no ``sender``) is everyone's; one
    of a shared space, or one that names its audience wherever it is (a space started by a
    front end that recorded no participants), must be visible to the viewer, as
    :func:`visible_condition` decides for a path."""
    participants = f"json_extract({conversation_alias}.meta, '$.participants')"
    visibility = f"json_extract({message_alias}.meta, '$.visibility')"
    sender = f"json_extract({message_alias}.meta, '$.sender')"
    unnamed = f"({participants} IS NULL AND {visibility} IS NULL AND {sender} IS NULL)"
    return f"({unnamed} OR {visible_condition(message_alias, param)})"


def visible_rows_sql(columns: list[str]) -> str:
    """The rows of one conversation (``:conversation``) the viewer (``:viewer``) may read,
    selecting ``columns`` of alias ``m``, with ``m.parent_id`` replaced by the record's nearest
    visible ancestor: the viewer's tree hangs together without the records it may not read.
    Only ids and parent ids of hidden records are read, inside the query."""
    picked = ", ".join("lift.up" if column == "parent_id" else f"m.{column}" for column in columns)
    return f"""
WITH RECURSIVE seen(id, parent_id, ok) AS (
    SELECT m.id, m.parent_id, {visible_condition("m")} FROM messages m
    WHERE m.conversation_id = :conversation
),
lift(id, up) AS (
    SELECT id, parent_id FROM seen WHERE ok
    UNION ALL
    SELECT lift.id, p.parent_id FROM lift JOIN seen p ON p.id = lift.up WHERE NOT p.ok
)
SELECT {picked} FROM lift JOIN messages m ON m.id = lift.id
WHERE lift.up IS NULL OR (SELECT ok FROM seen WHERE seen.id = lift.up)
"""
