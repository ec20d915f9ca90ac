"""Conversions between SQLite rows and the frozen records of :mod:`storage.models`.

Kept apart from the store so the tree index, export and import share one definition of ids,
timestamps and the searchable tool text.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import UTC, datetime
from typing import Any

from storage.models import Conversation, MessageRecord, MessageStatus
from storage.store import StorageError

MESSAGE_COLUMNS = (
    "id, conversation_id, role, content, parent_id, depth, version, status, created_at, meta"
)
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


def text_to_time(text: str) -> datetime:
    """Parse a stored or imported ISO 8601 timestamp; a naive one is taken to be UTC."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def dump_meta(meta: dict[str, Any] | None) -> str:
    return json.dumps(meta or {}, ensure_ascii=False, separators=(",", ":"), default=str)


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
    return " ".join(part for part in parts if part)


def row_to_message(row: sqlite3.Row | tuple[Any, ...]) -> MessageRecord:
    """A record from a row selected with :data:`MESSAGE_COLUMNS`; meta carries the status."""
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


def row_to_conversation(row: sqlite3.Row | tuple[Any, ...]) -> Conversation:
    conv_id, title, profile, created, updated, meta = row
    return Conversation(
        id=conv_id,
        title=title,
        profile=profile,
        created_at=text_to_time(created),
        updated_at=text_to_time(updated),
        meta=json.loads(meta) if meta else {},
    )
