"""Import a conversation folder written by :mod:`storage.export`.

Ids, versions, depths, times, text and remembered branches come back as written; meta passes
through the allowlist of :mod:`storage.import_meta` (content is kept, nothing that grants or
steers). If the conversation id (or any message id) is already in the database, the whole
tree is imported under fresh ids with the same structure.

Whatever the bytes, an import either succeeds or stops before it writes with one sentence
(a :class:`StorageError` naming the file and line): malformed JSON, JSON nested past what the
decoder takes, wrong types, values too deep to store are all that one sentence, never a
traceback.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.codec import new_id
from storage.export import MESSAGES_FILE, META_FILE
from storage.import_meta import imported_conversation_meta, imported_record_meta, nesting
from storage.models import Conversation, MessageRecord, MessageStatus
from storage.rows import text_to_time
from storage.store import NotFoundError, StorageError

if TYPE_CHECKING:
    from storage.interchange_ports import ImportTarget

logger = logging.getLogger(__name__)

_ROLES = {"system", "user", "assistant", "tool"}


def read_jsonl(store: ImportTarget, directory: Path) -> Conversation:
    """Import the export folder ``directory`` (naming one of its two files also works)."""
    directory = Path(directory)
    if directory.name in (META_FILE, MESSAGES_FILE) and directory.is_file():
        directory = directory.parent
    try:
        conversation, choices = _read_meta(directory / META_FILE)
        records, lines = _read_messages(directory / MESSAGES_FILE, conversation.id)
    except (RecursionError, MemoryError, TypeError, ValueError, OverflowError) as err:
        # the checks below name what is wrong; this is the net under them
        raise StorageError(
            f"Cannot import {directory}: the file is not a weaver-tui export ({type(err).__name__})."
        ) from None
    _check_tree(records, lines, directory / MESSAGES_FILE)

    taken = _conversation_exists(store, conversation.id) or bool(
        store.message_ids_in_use([r.id for r in records])
    )
    if taken:
        conversation, records, choices = _renumber(conversation, records, choices)
        logger.info("import of %s: ids in use, importing as %s", directory, conversation.id)
    known = {r.id for r in records}
    choices = {p: c for p, c in choices.items() if c in known and (p == "" or p in known)}
    if conversation.meta.get("active_leaf") not in known:
        conversation.meta.pop("active_leaf", None)
    return store.import_tree(conversation, records, choices)


def _fail(path: Path, line: int | None, what: str) -> StorageError:
    where = f"{path} line {line}" if line else str(path)
    return StorageError(f"Cannot import {where}: {what}.")


MAX_NESTING = 64
"""Deepest JSON an import reads; an export nests a handful of levels."""


def _load_json(path: Path, text: str, line: int | None) -> Any:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise _fail(path, line or err.lineno, f"invalid JSON ({err.msg})") from err
    except RecursionError:
        data = None
        deep = True
    else:
        deep = nesting(data, MAX_NESTING) > MAX_NESTING
    if deep:
        raise _fail(
            path, line, f"the file is not a weaver-tui export (its JSON nests past {MAX_NESTING})"
        )
    return data


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise StorageError(
            f"Cannot import {path.parent}: it has no {path.name} (an export folder holds "
            f"{META_FILE} and {MESSAGES_FILE})."
        ) from err
    except (OSError, UnicodeDecodeError) as err:
        raise _fail(path, None, f"unreadable ({err})") from err


def _field(
    data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path, line: int | None
) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _fail(
            path, line, f"field '{key}' is missing or not a {getattr(kind, '__name__', kind)}"
        )
    return value


def _time(data: dict[str, Any], key: str, path: Path, line: int | None) -> Any:
    try:
        return text_to_time(_field(data, key, str, path, line))
    except ValueError as err:
        raise _fail(path, line, f"field '{key}' is not an ISO 8601 time") from err


def _read_meta(path: Path) -> tuple[Conversation, dict[str, str]]:
    data = _load_json(path, _read_text(path), None)
    if not isinstance(data, dict):
        raise _fail(path, 1, "expected a JSON object")
    profile = data.get("profile") or data.get("agent_type")
    if not isinstance(profile, str):
        raise _fail(path, None, "field 'profile' (or 'agent_type') is missing")
    meta = data.get("meta") or {}
    choices = data.get("branch_choices") or {}
    if not isinstance(meta, dict) or not isinstance(choices, dict):
        raise _fail(path, None, "fields 'meta' and 'branch_choices' must be objects")
    conversation_id = _field(data, "id", str, path, None)
    title = data.get("title")
    conversation = Conversation(
        id=conversation_id,
        title=title if isinstance(title, str) and title else "Imported conversation",
        profile=profile,
        created_at=_time(data, "created_at", path, None),
        updated_at=_time(data, "updated_at", path, None),
        meta=imported_conversation_meta(meta, conversation_id, datetime.now(UTC)),
    )
    return conversation, {k: v for k, v in choices.items() if isinstance(v, str)}


def _read_messages(path: Path, conversation_id: str) -> tuple[list[MessageRecord], dict[str, int]]:
    records: list[MessageRecord] = []
    lines: dict[str, int] = {}
    for number, text in enumerate(_read_text(path).splitlines(), start=1):
        if not text.strip():
            continue
        data = _load_json(path, text, number)
        if not isinstance(data, dict):
            raise _fail(path, number, "expected a JSON object")
        role = data.get("role")
        if role not in _ROLES:
            raise _fail(path, number, f"role {role!r} is not one of {', '.join(sorted(_ROLES))}")
        meta = data.get("meta") or {}
        if not isinstance(meta, dict):
            raise _fail(path, number, "field 'meta' must be an object")
        try:
            MessageStatus(meta.get("status", MessageStatus.COMPLETE))
        except ValueError as err:
            raise _fail(path, number, f"status {meta.get('status')!r} is unknown") from err
        parent = data.get("parent_id")
        if parent is not None and not isinstance(parent, str):
            raise _fail(path, number, "field 'parent_id' must be a string or null")
        record = MessageRecord(
            id=_field(data, "id", str, path, number),
            conversation_id=conversation_id,
            role=role,
            content=_field(data, "content", str, path, number),
            parent_id=parent,
            depth=_field(data, "depth", int, path, number),
            version=_field(data, "version", int, path, number),
            created_at=_time(data, "created_at", path, number),
            meta=imported_record_meta(meta),
        )
        if record.id in lines:
            raise _fail(path, number, f"id {record.id} also appears on line {lines[record.id]}")
        lines[record.id] = number
        records.append(record)
    return records, lines


def _check_tree(records: list[MessageRecord], lines: dict[str, int], path: Path) -> None:
    """Every parent exists and every depth is its parent's plus one (so there is no cycle)."""
    depth = {r.id: r.depth for r in records}
    for record in records:
        line = lines[record.id]
        if record.parent_id is None:
            if record.depth != 0:
                raise _fail(path, line, f"root record {record.id} has depth {record.depth}, not 0")
        elif record.parent_id not in depth:
            raise _fail(path, line, f"parent {record.parent_id} is not in the file")
        elif depth[record.parent_id] + 1 != record.depth:
            raise _fail(path, line, f"depth {record.depth} does not follow its parent's")


def _conversation_exists(store: ImportTarget, conversation_id: str) -> bool:
    try:
        store.get_conversation(conversation_id)
    except NotFoundError:
        return False
    return True


def _renumber(
    conversation: Conversation, records: list[MessageRecord], choices: dict[str, str]
) -> tuple[Conversation, list[MessageRecord], dict[str, str]]:
    """The same tree under fresh ids (conversation and messages), references rewritten."""
    ids = {r.id: new_id() for r in records}
    new_conv_id = new_id()
    meta = dict(conversation.meta)
    if meta.get("active_leaf") in ids:
        meta["active_leaf"] = ids[meta["active_leaf"]]
    else:
        meta.pop("active_leaf", None)
    renumbered = [
        MessageRecord(
            id=ids[r.id],
            conversation_id=new_conv_id,
            role=r.role,
            content=r.content,
            parent_id=None if r.parent_id is None else ids[r.parent_id],
            depth=r.depth,
            version=r.version,
            created_at=r.created_at,
            meta=r.meta,
        )
        for r in records
    ]
    new_choices = {
        ("" if p == "" else ids[p]): ids[c]
        for p, c in choices.items()
        if c in ids and (p == "" or p in ids)
    }
    conv = Conversation(
        new_conv_id, conversation.title, conversation.profile,
        conversation.created_at, conversation.updated_at, meta,
    )  # fmt: skip
    return conv, renumbered, new_choices
