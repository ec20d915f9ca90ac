"""What a tree line says about a record: plain text of what was said, and to whom.

A reply's first line is Markdown (``Hello! I'm **weaver**``); the tree pane shows one narrow
line per message, so the markup is taken off (emphasis, code ticks, links and images become
their text, heading, list and quote markers go). A record that said something *to someone*
through a tool reads as ``to Alex: ...`` (or ``to everyone: ...``), from what it stores:

- a tool call whose arguments carry a message (``content``, ``message`` or ``text``) and a
  recipient (``recipient`` or ``to``) is said to that recipient; a call whose only argument is
  the message is said to everyone;
- a tool result whose meta names what it delivered (``delivered_content``) and to whom
  (``recipient``, else ``visibility``; ``shared`` means everyone) reads the same way.

Any other call reads as ``→ name(args)``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from storage.models import MessageRecord, MessageStatus

SUMMARY_WIDTH = 60
"""Characters of content shown per line before the ellipsis."""

EVERYONE = "everyone"
"""Whom a message said to all participants is shown as being for."""

SHARED = "shared"
"""The visibility (and recipient) a record meta gives a message meant for everyone."""

MESSAGE_KEYS = ("content", "message", "text")
RECIPIENT_KEYS = ("recipient", "to")

_FENCE = re.compile(r"^(`{3,}|~{3,})")
_RULE = re.compile(r"^([-*_])(\s*\1){2,}$")
_LINE_MARKERS = re.compile(r"^(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)+")
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_CODE = re.compile(r"(`+)(.+?)\1")
_EMPHASIS = (
    re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"),
    re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"),
    re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"),
    re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])"),
)


def first_line(content: str, limit: int = 2 * SUMMARY_WIDTH) -> str:
    """The first line of ``content`` that says something (at most ``limit`` characters):
    blank lines, code fences and rules are skipped, without splitting the whole text (a
    reply can be tens of thousands of characters long)."""
    start, size = 0, len(content)
    while start < size:
        end = content.find("\n", start)
        if end == -1:
            end = size
        line = content[start : min(end, start + limit)].strip()
        if line and not _FENCE.match(line) and not _RULE.match(line):
            return line
        start = end + 1
    return ""


def plain(line: str) -> str:
    """One line of Markdown as the plain text it reads as."""
    text = _LINE_MARKERS.sub("", line.strip())
    text = _IMAGE_OR_LINK.sub(r"\1", text)
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:  # code is shown as written, ticks taken off
        codes.append(match.group(2).strip())
        return f"\x00{len(codes) - 1}\x00"

    text = _CODE.sub(keep_code, text)
    for pattern in _EMPHASIS:
        text = pattern.sub(lambda match: match.group(match.lastindex or 1), text)
    return re.sub(r"\x00(\d+)\x00", lambda match: codes[int(match.group(1))], text)


def _first(values: Mapping[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = values.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _audience(name: str) -> str:
    return EVERYONE if name.strip().lower() in (SHARED, EVERYONE) else name.strip()


def addressed(record: MessageRecord) -> list[tuple[str, str]]:
    """(to whom, what) for each message ``record`` said to someone through a tool (see the
    module docstring); empty when it said nothing that way."""
    if record.role == "tool":
        said = record.meta.get("delivered_content")
        whom = record.meta.get("recipient") or record.meta.get("visibility")
        if isinstance(said, str) and isinstance(whom, str) and whom:
            return [(_audience(whom), said)]
        return []
    found = []
    for call in record.tool_calls:
        args = call.get("args")
        if not isinstance(args, Mapping):
            continue
        said = _first(args, MESSAGE_KEYS)
        whom = _first(args, RECIPIENT_KEYS)
        if said is not None and whom is not None:
            found.append((_audience(whom), said))
        elif said is not None and len(args) == 1:
            found.append((EVERYONE, said))
    return found


SAME_START = 12
"""Characters two versions must start alike before the line leaves that start out."""


def _same_start(one: str, other: str) -> int:
    """How many characters ``one`` and ``other`` begin with alike."""
    for index, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            return index
    return min(len(one), len(other))


def distinct_text(text: str, others: Sequence[str]) -> str:
    """``text`` without the words it starts with like the most similar of ``others`` (its
    sibling versions), ``…`` in their place, so versions that begin alike read apart; whole
    when they differ early or not at all."""
    same = max((_same_start(text, other) for other in others), default=0)
    if same < SAME_START or same >= len(text):
        return text
    cut = text.rfind(" ", 0, same + 1)
    if cut <= 0:
        return text
    return "…" + text[cut + 1 :]


def summary_parts(
    record: MessageRecord, width: int = SUMMARY_WIDTH, *, versions: Sequence[MessageRecord] = ()
) -> tuple[str, str]:
    """(whom it is for, e.g. ``"to Alex: "`` or ``""``; the plain text shown), together at
    most ``width`` characters. With the record's other ``versions``, the words it starts
    with like them are left out (see :func:`distinct_text`)."""
    prefix, text = _full_summary(record)
    if versions:
        text = distinct_text(text, [_full_summary(other)[1] for other in versions])
    room = max(width - len(prefix), 8)
    if len(text) > room:
        text = text[: room - 1].rstrip() + "…"
    return prefix, text


def _full_summary(record: MessageRecord) -> tuple[str, str]:
    """(whom it is for, the whole plain first line) before any cut."""
    messages = addressed(record)
    text = plain(first_line(record.content))
    prefix = ""
    if messages and (record.role == "tool" or not text):
        whom, said = messages[0]
        prefix, text = f"to {whom}: ", plain(first_line(said))
        if len(messages) > 1:
            text += " · " + " · ".join(f"to {w}: {plain(first_line(s))}" for w, s in messages[1:])
    elif not text and record.tool_calls:
        text = "→ " + ", ".join(_call_summary(call) for call in record.tool_calls)
    if record.role == "tool" and not prefix:
        name = record.meta.get("name")
        if name:
            text = f"{name}: {text}" if text else str(name)
    if not text:
        text = "…" if record.status is MessageStatus.STREAMING else "(empty)"
    return prefix, " ".join(text.split())


def summary(record: MessageRecord, width: int = SUMMARY_WIDTH) -> str:
    """The record as one plain line: whom it is for, then what it says (or what it did)."""
    prefix, text = summary_parts(record, width)
    return prefix + text


def _call_summary(call: Mapping[str, object]) -> str:
    args = call.get("args") or {}
    shown = json.dumps(args, ensure_ascii=False) if args else ""
    if len(shown) > 24:
        shown = shown[:23] + "…"
    return f"{call.get('name', '?')}({shown.strip('{}')})"
