"""Reading retrieval results into numbered sources, whatever shape the tool returned.

Knowledge tools answer as JSON (a list of hits, or an object holding one), as numbered text
blocks (``[1] Title`` / ``1. Title`` / ``Source: ...``), or as plain text. Each becomes a
:class:`Source` with a number for citation, a title, its text and where it came from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents.offline.text import shorten

_LIST_KEYS = ("results", "chunks", "documents", "hits", "items", "sources", "data", "matches")
_TITLE_KEYS = ("title", "name", "doc_title", "document_title", "source", "doc_id", "file", "id")
_TEXT_KEYS = ("text", "content", "chunk", "page_content", "snippet", "summary", "body", "passage")
_PLACE_KEYS = ("source", "url", "file", "path", "doc_id", "page")
_BLOCK_START = re.compile(
    r"^\s*(?:\[(?P<label>[^\]\n]{1,80})\]\s|(?P<m>\d+)[.)]\s|(?:source|result|document|chunk)\s*#?\d+\s*[:.-])",
    re.IGNORECASE,
)
_NOTHING = re.compile(
    r"^(?:no|nothing|0)\b[^\n]{0,80}\b(?:match|found|results?|notes?|documents?)", re.I
)
_SCORE = re.compile(r"\s*\((?:score|relevance)[^)]*\)\s*$", re.I)
_FIELD = re.compile(
    r"^\s*(title|source|file|url|path|doc(?:ument)?(?:_id)?|score|page)\s*:\s*(.+)$", re.I
)


@dataclass(frozen=True, slots=True)
class Source:
    """One retrieved passage; ``cite`` is its mark in the answer (the tool's own label, or n)."""

    number: int
    title: str
    text: str
    location: str = ""
    label: str = ""

    @property
    def cite(self) -> str:
        return self.label if self.label and not self.label.isdigit() else str(self.number)


def parse_sources(payload: str, start: int = 1) -> list[Source]:
    """Numbered sources from one tool result, numbering from ``start``."""
    text = payload.strip()
    if not text or _NOTHING.match(text):
        return []
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if data is not None:
        return _from_json(data, start)
    blocks = _split_blocks(text)
    if len(blocks) > 1 or (blocks and _BLOCK_START.match(blocks[0][0] if blocks[0] else "")):
        return [s for i, b in enumerate(blocks) if (s := _from_block(b, start + i)) is not None]
    first = text.splitlines()[0]
    return [Source(start, shorten(first, 90), text)]


def _from_json(data: Any, start: int) -> list[Source]:
    items: list[Any]
    if isinstance(data, Mapping):
        found = next((data[k] for k in _LIST_KEYS if isinstance(data.get(k), list)), None)
        items = found if found is not None else [data]
    elif isinstance(data, list):
        items = data
    else:
        return [Source(start, shorten(str(data), 90), str(data))]
    sources: list[Source] = []
    for item in items:
        number = start + len(sources)
        if isinstance(item, Mapping):
            raw = item.get("metadata")
            meta: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
            merged = {**meta, **{k: v for k, v in item.items() if k != "metadata"}}
            body = next((str(merged[k]) for k in _TEXT_KEYS if merged.get(k)), "")
            title = next((str(merged[k]) for k in _TITLE_KEYS if merged.get(k)), "") or shorten(
                body, 60
            )
            place = next(
                (str(merged[k]) for k in _PLACE_KEYS if merged.get(k) and str(merged[k]) != title),
                "",
            )
            if body or title:
                sources.append(Source(number, shorten(title, 90), body or title, place))
        elif isinstance(item, str) and item.strip():
            sources.append(Source(number, shorten(item, 60), item))
    return sources


def _split_blocks(text: str) -> list[list[str]]:
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if _BLOCK_START.match(line) or line.strip() == "---":
            blocks.append([] if line.strip() == "---" else [line])
        elif blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return [b for b in blocks if any(x.strip() for x in b)]


def _from_block(lines: list[str], number: int) -> Source | None:
    title, place, body, label = "", "", [], ""
    for index, line in enumerate(lines):
        field = _FIELD.match(line)
        if field:
            key, value = field.group(1).lower(), field.group(2).strip()
            if key == "title":
                title = value
            elif key != "score" and not place:
                place = value
            continue
        if index == 0 and (start := _BLOCK_START.match(line)):
            label = start.group("label") or ""
            stripped = _SCORE.sub("", line[start.end() :]).strip()
        else:
            stripped = line.strip()
        if index == 0 and stripped and not title:
            title = stripped
        elif stripped:
            body.append(stripped)
    text = " ".join(body) or title
    if not text:
        return None
    place = place if place != title else ""
    return Source(number, shorten(title or place or text, 90), text, place, label)
