"""Conversions between SQLite rows and the frozen records of :mod:`storage.models`.

Kept apart from the store so the tree index, export and import share one definition of ids,
timestamps and the searchable tool text. Message rows decode in :mod:`storage.rows`.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import UTC, datetime
from typing import Any

from storage.models import Conversation, MessageStatus
from storage.printable import printable_title, whole_text
from storage.rows import MessageRow, text_to_time
from storage.secrets import without_known_secrets
from storage.store import StorageError

MESSAGE_COLUMNS = ", ".join(MessageRow._fields)
"""The messages columns a query selects to build a :class:`storage.rows.MessageRow`."""
CONVERSATION_COLUMNS = "id, title, profile, created_at, updated_at, meta"

_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def new_id() -> str:
    """A random id (uuid4 hex): unique across processes without coordination."""
    return uuid.uuid4().hex


def now_text() -> str:
    """The current UTC time as stored: ISO 8601 with microseconds and ``Z``, so it sorts."""
    return datetime.now(UTC).strftime(_TIME_FORMAT)


def time_to_text(moment: datetime) -> str:
    """A datetime in the stored form; a naive datetime is taken to be UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime(_TIME_FORMAT)


def storable_text(text: str) -> str:
    """``text`` as every store keeps it: without the keys this process uses (in any of their
    forms, :func:`storage.secrets.without_known_secrets`), and as whole Unicode: each lone
    surrogate (U+D800-DFFF alone) as U+FFFD, a pair split in two joined
    (:func:`storage.printable.whole_text`).

    Text reaches the store from outside: a provider's JSON (a ``\\udXXX`` escape decodes to
    a lone surrogate; a proxy may echo the key it was sent), an imported file, an MCP result, a
    file name that is not UTF-8 (decoded with ``surrogateescape``). No database encodes a lone
    surrogate, so one would fail the write and lose the turn; every text column (content, tool
    text, meta) is written through this function, so whatever the source, the write succeeds,
    what a read returns encodes, and no key is kept."""
    return whole_text(without_known_secrets(text))


def dump_meta(meta: dict[str, Any] | None) -> str:
    """``meta`` as the stored JSON text (see :func:`storable_text`)."""
    encoded = json.dumps(meta or {}, ensure_ascii=False, separators=(",", ":"), default=str)
    return storable_text(encoded)


def parse_status(value: Any) -> MessageStatus:
    """A :class:`MessageStatus` from its value, or a :class:`StorageError` sentence."""
    try:
        return MessageStatus(value)
    except ValueError as err:
        allowed = ", ".join(status.value for status in MessageStatus)
        raise StorageError(f"Unknown message status {value!r}; use one of {allowed}.") from err


def split_status(meta: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
    """Take ``status`` out of a meta dict (it lives in its own column); default ``complete``."""
    rest = dict(meta or {})
    return rest, parse_status(rest.pop("status", MessageStatus.COMPLETE)).value


def tool_text(meta: dict[str, Any] | None) -> str:
    """The searchable text of what the agent did: tool names and their arguments."""
    if not meta:
        return ""
    parts: list[str] = []
    for call in meta.get("tool_calls") or []:
        if isinstance(call, dict):
            parts.append(str(call.get("name", "")))
            args = call.get("args")
            parts.append(args if isinstance(args, str) else dump_meta(args))
    if isinstance(meta.get("name"), str):
        parts.append(meta["name"])
    return storable_text(" ".join(part for part in parts if part))


def row_to_conversation(row: sqlite3.Row | tuple[Any, ...]) -> Conversation:
    conv_id, title, profile, created, updated, meta = row
    return Conversation(
        id=conv_id,
        title=_stored_title(title),
        profile=profile,
        created_at=text_to_time(created),
        updated_at=text_to_time(updated),
        meta=json.loads(meta) if meta and meta != "{}" else {},
    )


def _stored_title(title: str) -> str:
    """A stored title as shown: titles are cleaned when written, so one that is printable
    on one line with single spaces is used as it is; one stored before titles were cleaned
    is cleaned here (the conversation list decodes every conversation's title)."""
    if title and title.isprintable() and "  " not in title and title.strip() == title:
        return title
    return printable_title(title)
