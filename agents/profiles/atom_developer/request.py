"""Reading what the user asks for: the intent, a log sample, and any code or spec to start from.

A message such as "extract the error code from lines like these" followed by a fenced block
gives the intent and the sample. The sample may instead be a file named in the message
(``logs/app.log``): it is read only when it is a regular file inside the project root, and
only its first :data:`SAMPLE_LINES` lines. A ```` ```python ```` block is the user's own
draft to check and fix, a ```` ```yaml ```` block its spec.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from agents.errors import ToolError
from agents.project_paths import resolve_project_path
from agents.text_files import fenced

SAMPLE_LINES = 50
"""Sample lines kept (the validator runs the spec's pattern on each)."""
SAMPLE_BYTES = 64 * 1024
"""Bytes read at most from a sample file."""

_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)\n(?P=fence)[ \t]*$", re.M | re.S)  # fmt: skip
_PATH = re.compile(
    r"(?<![\w/.-])(?P<path>(?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)*\.(?:log|txt|out|err|trace))\b"
)
_CODE_LANGS = frozenset({"python", "py", "python3"})
_SPEC_LANGS = frozenset({"yaml", "yml"})


__all__ = ["AtomRequest", "fenced", "fences", "last_block", "read_request"]


@dataclass(frozen=True, slots=True)
class AtomRequest:
    """What one message asks the atom developer to do."""

    intent: str
    sample: str
    sample_from: str
    """Where the sample came from: ``"message"``, a project-relative path, or ``""``."""
    code: str = ""
    spec: str = ""
    note: str = ""
    """Why a named sample file was not read (outside the project, not a file ...)."""
    sample_cut: str = ""
    """What of the sample was left out, as a sentence ("" when the whole sample is used): the
    verdict is said to cover only what was checked."""


def fences(text: str) -> list[tuple[str, str, tuple[int, int]]]:
    """The fenced blocks of ``text``: (language, body, span)."""
    return [(m.group("lang").lower(), m.group("body"), m.span()) for m in _FENCE.finditer(text)]


def outside_fences(text: str) -> str:
    """``text`` without its fenced blocks: the prose around them."""
    return _FENCE.sub("", text)


def last_block(text: str, languages: frozenset[str]) -> str:
    """The body of the last fenced block in one of ``languages`` ("" when there is none)."""
    bodies = [body for lang, body, _ in fences(text) if lang in languages]
    return bodies[-1].strip("\n") + "\n" if bodies else ""


def read_request(text: str, project_root: Path | None) -> AtomRequest:
    """The intent, sample, code and spec in the user's message ``text``."""
    code = spec = sample = ""
    rest: list[str] = []
    cursor = 0
    for lang, body, (start, end) in fences(text):
        rest.append(text[cursor:start])
        cursor = end
        if lang in _CODE_LANGS:
            code = body.strip("\n") + "\n"
        elif lang in _SPEC_LANGS:
            spec = body.strip("\n") + "\n"
        elif not sample:
            sample = body
    rest.append(text[cursor:])
    intent = " ".join("".join(rest).split())
    if sample:
        kept, cut = _cut(sample)
        return AtomRequest(intent, kept, "message", code, spec, sample_cut=cut)
    named = _PATH.search(intent)
    if named is None or project_root is None:
        return AtomRequest(intent, "", "", code, spec)
    try:
        sample, cut = read_sample_file(project_root, named.group("path"))
    except ToolError as exc:
        return AtomRequest(intent, "", "", code, spec, note=str(exc))
    return AtomRequest(intent, sample, named.group("path"), code, spec, sample_cut=cut)


def read_sample_file(root: Path, user_path: str) -> tuple[str, str]:
    """The first whole lines of a regular file inside ``root`` (never a pipe, device or a
    file a link leads to outside the root), and what was left out (see :func:`_cut`); a file
    longer than :data:`SAMPLE_BYTES` loses the line its first bytes end in, never keeping
    half a line."""
    path = resolve_project_path(root, user_path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ToolError(f"The sample file {user_path!r} cannot be read ({exc.strerror}).") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ToolError(f"The sample {user_path!r} is not a regular file.")
        data = _read_up_to(fd, SAMPLE_BYTES + 1)
    finally:
        os.close(fd)
    longer = len(data) > SAMPLE_BYTES
    if longer:
        data = data[: data.rfind(b"\n", 0, SAMPLE_BYTES) + 1]
    return _cut(data.decode("utf-8", errors="replace"), longer)


def _read_up_to(fd: int, size: int) -> bytes:
    parts, got = [], 0
    while got < size and (chunk := os.read(fd, size - got)):
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _cut(sample: str, longer: bool = False) -> tuple[str, str]:
    """The sample's first :data:`SAMPLE_LINES` non-blank lines, and a sentence saying what was
    left out ("" when nothing was; ``longer``: the sample was a file's first bytes only)."""
    lines = [line for line in sample.splitlines() if line.strip()]
    kept = lines[:SAMPLE_LINES]
    if longer:
        cut = (
            f"The sample was cut: only {len(kept)} lines from the first"
            f" {SAMPLE_BYTES // 1024} KiB of the file were checked."
        )
    elif len(lines) > len(kept):
        cut = f"The sample was cut: only its first {len(kept)} of {len(lines)} lines were checked."
    else:
        cut = ""
    return "\n".join(kept), cut
