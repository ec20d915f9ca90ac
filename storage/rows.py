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
from itertools import repeat
from typing import Any, NamedTuple, cast

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

    ``tuple.__new__`` straight from ``map`` calls no Python code per row (``_make`` does, and
    checks a length the query already fixes): on a 10,000-record conversation the typed rows
    cost a few percent over the bare query, against about twice that through ``_make``.
    """
    return cast(list[MessageRow], list(map(tuple.__new__, repeat(MessageRow), values)))


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
