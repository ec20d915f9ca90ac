"""A stored message as the backend hands it out, undecoded: :class:`MessageRow`.

Opening a conversation of 10,000 records to show one path should not parse 10,000 meta JSON
texts and timestamps. A row carries the columns as stored (the meta as its JSON text, the
creation time as its ISO 8601 text) and builds the :class:`storage.models.MessageRecord` only
when asked (:meth:`MessageRow.record`). Readers take fields by name, so nothing above the
backend depends on the order of its columns.

Depends on :mod:`storage.models` only, so the protocol (:mod:`storage.store`) and the codec
can both use it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from storage.models import MessageRecord, Role


class MessageRow(NamedTuple):
    """One record's stored fields, decoded into a :class:`MessageRecord` by :meth:`record`.

    ``status`` is the status value (its own column); ``meta`` the rest of the meta as JSON
    text (``"{}"`` or empty for none); ``created_at`` the stored ISO 8601 text, which sorts.
    """

    id: str
    conversation_id: str
    role: Role
    content: str
    parent_id: str | None
    depth: int
    version: int
    status: str
    created_at: str
    meta: str

    def record(self) -> MessageRecord:
        """The decoded record (meta parsed, ``status`` folded into it). Built anew on each
        call: a caller that asks often keeps it (:class:`storage.tree_index.LazyRecords`)."""
        return row_to_message(self)


def message_rows(values: Iterable[Sequence[Any]]) -> list[MessageRow]:
    """Typed rows from rows of the fields in :class:`MessageRow` order, such as a cursor
    (iterated, not fetched first: each plain row is freed as soon as it is copied).

    The rows of an open conversation stay in memory (the tree index holds them), and the
    database hands out a new string for every field of every row: the values most rows repeat
    (conversation, role, status, an empty meta) and each parent id (its parent's id) are kept
    once, a third of what 10,000 rows would otherwise hold, for about 1 µs a row.
    ``tuple.__new__`` builds each row without ``_make``'s Python-level length check.
    """
    shared: dict[str, str] = {}
    share = shared.setdefault
    new = tuple.__new__
    rows: list[MessageRow] = []
    add = rows.append
    for message_id, conversation, role, content, parent, depth, version, status, at, meta in values:
        fields = (
            share(message_id, message_id),
            share(conversation, conversation),
            share(role, role),
            content,
            parent if parent is None else share(parent, parent),
            depth,
            version,
            share(status, status),
            at,
            share(meta, meta) if meta in _EMPTY_META else meta,
        )
        add(new(MessageRow, fields))
    return rows


_EMPTY_META = frozenset({"", "{}"})
"""The meta texts of a record without meta, kept once; any other is each row's own."""


def text_to_time(text: str) -> datetime:
    """Parse a stored or imported ISO 8601 timestamp; a naive one is taken to be UTC."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def row_to_message(row: Sequence[Any]) -> MessageRecord:
    """A record from the fields of a :class:`MessageRow`, in its order (a typed row or a
    plain database row); meta carries the status."""
    msg_id, conv_id, role, content, parent_id, depth, version, status, created, meta = row
    meta_dict = json.loads(meta) if meta and meta != "{}" else {}
    meta_dict["status"] = status
    return MessageRecord(
        id=msg_id,
        conversation_id=conv_id,
        role=role,
        content=content,
        parent_id=parent_id,
        depth=depth,
        version=version,
        created_at=text_to_time(created),
        meta=meta_dict,
    )
