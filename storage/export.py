"""Export a conversation: the active path as Markdown, the whole tree as a folder.

The tree layout is a folder with ``meta.json`` (the conversation) and
``messages.jsonl`` (one record per line). Beside ``agent_type`` it writes ``profile``, ``format``/``format_version``, and ``branch_choices`` (the remembered child at
every fork), so :mod:`storage.importer` restores the tree and the branch the user was on.
Credentials never leave: meta passes through :func:`storage.secrets.scrub`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.codec import time_to_text
from storage.models import Conversation, MessageRecord, MessageStatus
from storage.printable import printable, printable_json
from storage.secrets import scrub, scrub_text
from storage.store import StorageError
from storage.usage_text import usage_text

if TYPE_CHECKING:
    from storage.audience import Viewer
    from storage.interchange_ports import ExportSource
    from storage.rows import MessageRow

logger = logging.getLogger(__name__)

FORMAT = "weaver-tui/conversation"
FORMAT_VERSION = 1
META_FILE = "meta.json"
MESSAGES_FILE = "messages.jsonl"

OUTCOME_NOTES = {
    "refused": "refused",
    "filtered": "stopped by the content filter",
    "truncated": "cut at the output limit",
    "empty": "empty reply",
}
"""A marked reply's ``meta["outcome"]``, as its heading names it (beside its status)."""
_STATUS_NOTE = {
    MessageStatus.CANCELLED: "cancelled",
    MessageStatus.ERROR: "error",
    MessageStatus.STREAMING: "incomplete",
}


def to_markdown(
    store: ExportSource,
    conversation_id: str,
    leaf_id: str | None = None,
    viewer: Viewer = None,
) -> str:
    """The path to ``leaf_id`` (default: the active leaf) as a Markdown document; with a
    ``viewer``, only the records of it they may read (:mod:`storage.audience`)."""
    conversation = store.get_conversation(conversation_id)
    index = store.tree_index(conversation_id, viewer)
    if viewer is not None:
        path = _viewer_path(store, conversation, leaf_id, viewer)
    elif leaf_id is not None:
        if leaf_id not in index:
            raise StorageError(f"Message {leaf_id} is not in conversation {conversation_id}.")
        path = index.records(index.path_to(leaf_id))
    else:
        path = index.active_path()
    lines = [
        f"# {conversation.title}",
        "",
        f"*Profile: {conversation.profile} · {len(path)} messages · last updated "
        f"{conversation.updated_at:%Y-%m-%d %H:%M} UTC*",
        "",
    ]
    instructions = conversation.meta.get("instructions")
    if isinstance(instructions, str) and instructions.strip():
        quoted = "\n".join(f"> {line}" for line in instructions.strip().splitlines())
        lines += ["**Instructions for this conversation:**", "", scrub(quoted), ""]
    for record in path:
        versions = len(index.siblings(record.id)) if record.id in index else 1
        lines += _record_markdown(record, versions)
    # a document to read, maybe with ``cat``: what it quotes never drives the terminal
    return printable("\n".join(lines).rstrip()) + "\n"


def _viewer_path(
    store: ExportSource, conversation: Conversation, leaf_id: str | None, viewer: str
) -> list[MessageRecord]:
    """What ``viewer`` may read of the path to ``leaf_id`` (default: the active leaf), which
    may itself be a record they cannot read."""
    leaf = leaf_id or conversation.meta.get("active_leaf")
    if not leaf:
        return []
    path = store.path_to_root(str(leaf), viewer)
    if any(record.conversation_id != conversation.id for record in path):
        raise StorageError(f"Message {leaf} is not in conversation {conversation.id}.")
    return path


def _record_markdown(record: MessageRecord, versions: int) -> list[str]:
    meta = record.meta
    out = [_record_heading(record, versions), ""]
    if record.role == "tool":
        out += _fenced(record.content, "text")
    elif record.content:
        out += [record.content, ""]
    for attachment in meta.get("attachments") or ():
        if isinstance(attachment, dict):
            out += _attachment_markdown(attachment)
    for call in record.tool_calls:
        args = call.get("args")
        text = (
            args if isinstance(args, str) else json.dumps(scrub(args), indent=2, ensure_ascii=False)
        )
        out += [f"**Tool call** `{call.get('name', '?')}`", "", *_fenced(text, "json")]
    if meta.get("error"):
        out += [f"> **Error:** {scrub(str(meta['error']))}", ""]
    usage = meta.get("turn_usage")
    if record.role == "assistant" and isinstance(usage, dict):
        out += [f"*Usage: {usage_text(usage)}*", ""]
    return out


def _record_heading(record: MessageRecord, versions: int) -> str:
    """``## Role: who (notes)``: the sender or tool, the model, the version, status, audience."""
    meta = record.meta
    title = {"user": "User", "assistant": "Assistant", "tool": "Tool", "system": "System"}[
        record.role
    ]
    if record.role == "user" and meta.get("sender"):
        title += f": {meta['sender']}"
    if record.role == "tool" and meta.get("name"):
        title += f": {meta['name']}"
    notes = []
    if record.role == "assistant" and meta.get("model"):
        notes.append(" · ".join(str(meta[key]) for key in ("provider", "model") if meta.get(key)))
    if versions > 1:
        notes.append(f"version {record.version} of {versions}")
    if record.status in _STATUS_NOTE:
        notes.append(f"**{_STATUS_NOTE[record.status]}**")
    if meta.get("outcome") in OUTCOME_NOTES:  # how a marked reply ended
        notes.append(f"**{OUTCOME_NOTES[meta['outcome']]}**")
    if meta.get("visibility") not in (None, "shared"):
        notes.append(f"private to {meta['visibility']}")
    return f"## {title}" + (f" ({', '.join(notes)})" if notes else "")


def _attachment_markdown(attachment: dict[str, Any]) -> list[str]:
    """An attached file's line; a text file's content follows in a fenced block."""
    out = [f"📎 *{attachment.get('name', 'file')}* ({attachment.get('size', 0)} bytes)", ""]
    if attachment.get("kind") == "text":
        out += _fenced(scrub_text(str(attachment.get("text") or "")), "text")
    return out


def _fenced(text: str, language: str) -> list[str]:
    """A fenced block longer than any backtick run inside ``text``."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + language, text, fence, ""]


def write_jsonl(
    store: ExportSource, conversation_id: str, directory: Path, viewer: Viewer = None
) -> Path:
    """Write ``meta.json`` and ``messages.jsonl`` into ``directory`` (created); return it.
    With a ``viewer``, the tree they may read (:meth:`ExportSource.message_rows`)."""
    conversation = store.get_conversation(conversation_id)
    choices = store.branch_choices(conversation_id)
    if viewer is None:
        records = store.list_messages(conversation_id)
    else:
        records = _viewer_records(store.message_rows(conversation_id, viewer))
        kept = {record.id for record in records}
        choices = {
            parent: child
            for parent, child in choices.items()
            if child in kept and (parent == "" or parent in kept)
        }
    directory = Path(directory)
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": conversation.id,
        "title": conversation.title,
        "agent_type": conversation.profile,
        "profile": conversation.profile,
        "created_at": time_to_text(conversation.created_at),
        "updated_at": time_to_text(conversation.updated_at),
        "meta": scrub(conversation.meta),
        "branch_choices": choices,
    }
    lines = [printable_json(json.dumps(_record_json(r), ensure_ascii=False)) for r in records]
    try:
        directory.mkdir(parents=True, exist_ok=True)
        meta_text = printable_json(json.dumps(meta, ensure_ascii=False, indent=2))
        _write_atomic(directory / META_FILE, meta_text + "\n")
        _write_atomic(directory / MESSAGES_FILE, "".join(line + "\n" for line in lines))
    except OSError as err:
        raise StorageError(f"Cannot write the export to {directory} ({err.strerror}).") from err
    logger.info(
        "exported conversation %s (%d records) to %s", conversation_id, len(records), directory
    )
    return directory


def _viewer_records(rows: list[MessageRow]) -> list[MessageRecord]:
    """A viewer's rows as records of a tree of their own: each record's depth counts the
    readable ancestors it hangs under (parents first, as the stored depths order them)."""
    depth: dict[str, int] = {}
    records: list[MessageRecord] = []
    for row in sorted(rows, key=lambda r: (r.depth, r.created_at)):
        level = 0 if row.parent_id is None else depth[row.parent_id] + 1
        depth[row.id] = level
        records.append(dataclasses.replace(row.record(), depth=level))
    return records


def _record_json(record: MessageRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "conversation_id": record.conversation_id,
        "role": record.role,
        "content": record.content,
        "parent_id": record.parent_id,
        "depth": record.depth,
        "version": record.version,
        "created_at": time_to_text(record.created_at),
        "meta": scrub(record.meta),
    }


def _write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file and rename it over ``path``: never a half-written export."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
