"""Who may read a record, written in PostgreSQL's SQL: the same rules as
:mod:`storage.audience` (which holds them in SQLite's), with ``%(viewer)s`` as the viewer's
key (:func:`storage.audience.viewer_key`) and ``%(conversation)s`` as the conversation."""

from __future__ import annotations

from storage.audience import EVERYONE

_UPPER = "".join(
    ch
    for ch in map(chr, range(0x20000))  # no cased letter lies beyond
    if ch.isupper() or ch.istitle()
    if len(ch.lower()) == 1 and ch.lower() != ch
)
_LOWER = "".join(ch.lower() for ch in _UPPER)


def _name_key(expression: str) -> str:
    """A stored name in lower case as Python's ``lower`` (and so
    :func:`storage.audience.viewer_key`) writes it, whatever the server's locale: ``lower``
    follows the locale (under ``C`` it changes A-Z only, and ``Émile`` would not read their
    own records), ``translate`` maps every cased letter itself."""
    return f"translate({expression}, '{_UPPER}', '{_LOWER}')"


def visible_condition(alias: str = "m") -> str:
    """True (never NULL) for a record of ``alias`` the viewer may read."""
    meta = f"({alias}.meta::jsonb)"
    visibility = f"({meta} ->> 'visibility')"
    sender = f"({meta} ->> 'sender')"
    return (
        f"(({alias}.status <> 'streaming' AND "
        f"(coalesce({visibility}, CASE WHEN {alias}.role = 'user' "
        f"THEN coalesce({sender}, '{EVERYONE}') END) = '{EVERYONE}'"
        f" OR {_name_key(visibility)} = %(viewer)s"
        f" OR ({alias}.role = 'user' AND {_name_key(sender)} = %(viewer)s))) IS TRUE)"
    )


def conversation_condition(conversation_alias: str, message_alias: str = "m") -> str:
    """As :func:`storage.audience.conversation_condition`: a record of a conversation without
    participants that names no audience is everyone's; any other must be visible to the
    viewer."""
    participants = f"(({conversation_alias}.meta::jsonb) ->> 'participants')"
    meta = f"({message_alias}.meta::jsonb)"
    unnamed = (
        f"({participants} IS NULL AND ({meta} ->> 'visibility') IS NULL"
        f" AND ({meta} ->> 'sender') IS NULL)"
    )
    return f"({unnamed} OR {visible_condition(message_alias)})"


def visible_rows_sql(columns: list[str]) -> str:
    """The rows of ``%(conversation)s`` the viewer may read, ``parent_id`` replaced by the
    nearest visible ancestor (see :func:`storage.audience.visible_rows_sql`)."""
    picked = ", ".join("lift.up" if column == "parent_id" else f"m.{column}" for column in columns)
    return f"""
WITH RECURSIVE seen(id, parent_id, ok) AS (
    SELECT m.id, m.parent_id, {visible_condition("m")} FROM messages m
    WHERE m.conversation_id = %(conversation)s
),
lift(id, up) AS (
    SELECT id, parent_id FROM seen WHERE ok
    UNION ALL
    SELECT lift.id, p.parent_id FROM lift JOIN seen p ON p.id = lift.up WHERE NOT p.ok
)
SELECT {picked} FROM lift JOIN messages m ON m.id = lift.id
WHERE lift.up IS NULL OR (SELECT ok FROM seen WHERE seen.id = lift.up)
"""
