"""An export as one JSONL stream (the conversation's line first, then one line per record), for
pipes and single files, next to the two-file folder (``meta.json`` + ``messages.jsonl``) that
the store reads and writes. Both directions go through that folder, so a stream is checked by
exactly the importer's rules."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from storage.export import MESSAGES_FILE, META_FILE

MAX_STREAM_BYTES = 500_000_000
"""The largest stream ``import`` reads (a bigger one is refused with a sentence)."""


class StreamError(ValueError):
    """The stream is not an export (one sentence)."""


def folder_to_stream(folder: Path) -> str:
    """The export in ``folder`` as one JSONL text: the conversation's line, then the records."""
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    messages = (folder / MESSAGES_FILE).read_text(encoding="utf-8")
    head = json.dumps(meta, ensure_ascii=False)
    return (
        head + "\n" + messages
        if messages.endswith("\n") or not messages
        else head + "\n" + messages + "\n"
    )


def stream_meta(text: str) -> dict[str, Any]:
    """The conversation line of a stream."""
    first = text.split("\n", 1)[0].strip()
    try:
        meta = json.loads(first) if first else None
    except (ValueError, RecursionError):
        meta = None
    if (
        not isinstance(meta, dict)
        or "role" in meta
        or not (meta.get("profile") or meta.get("agent_type"))
    ):
        raise StreamError(
            "the first line is not a conversation (an export stream starts with the "
            "conversation's line, then one line per message)"
        )
    return meta


def folder_source_id(folder: Path) -> str:
    """The exported conversation's id in ``folder`` (``""`` when it has none or the file is
    not readable JSON: the import itself then says what is wrong)."""
    try:
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return ""
    found = meta.get("id") if isinstance(meta, dict) else None
    return found if isinstance(found, str) else ""


@contextmanager
def stream_as_folder(text: str) -> Iterator[Path]:
    """A temporary export folder holding the stream ``text``."""
    if len(text) > MAX_STREAM_BYTES:
        raise StreamError(f"the stream is over {MAX_STREAM_BYTES // 1_000_000} MB")
    meta = stream_meta(text)
    rest = text.split("\n", 1)[1] if "\n" in text else ""
    with tempfile.TemporaryDirectory(prefix="weaver-import-") as name:
        folder = Path(name)
        (folder / META_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        (folder / MESSAGES_FILE).write_text(rest, encoding="utf-8")
        yield folder
