"""``read_file`` and ``list_files``: the ide-helper's eyes, as plain functions of the root.

The tools in :mod:`tools` are thin wrappers; these functions take the project root and the
model's arguments, do the real work on the file system, and return the text the model reads.
Every failure is a :class:`~agents.errors.ToolError` whose message says what to do instead.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from agents.confined_files import open_confined
from agents.errors import ToolError
from agents.profiles.ide_helper.project_files import SKIPPED_DIR_NAMES, project_files
from agents.project_paths import (
    relative_display,
    resolve_inside,
    resolve_project_path,
)
from agents.text_files import BINARY_SNIFF_BYTES, is_binary

MAX_READ_BYTES = 200_000
MAX_READ_LINES = 2_000
MAX_LINE_CHARS = 2_000
MAX_LISTED = 400
"""At most this many paths per ``list_files`` answer; the rest are counted."""


def read_text_file(
    root: Path, path: str, start_line: int | None = None, end_line: int | None = None
) -> str:
    """Numbered lines ``start_line``..``end_line`` (1-based, inclusive) of a text file,
    capped at :data:`MAX_READ_LINES` lines / :data:`MAX_READ_BYTES` bytes with a notice
    naming the next range to ask for."""
    real_root = resolve_inside(root, ".")
    target = resolve_project_path(root, path)
    shown = _quoted(relative_display(real_root, target))
    if target.is_dir():
        raise ToolError(f"'{shown}' is a folder; use list_files to see what it contains.")
    if os.path.exists(target) and not target.is_file():
        raise ToolError(
            f"'{shown}' is not a regular file (a pipe, socket or device); read_file only reads "
            "files."
        )
    if not target.is_file():
        raise ToolError(
            f"There is no file '{shown}' in the project; use list_files or search_code to "
            "find the right path."
        )
    if start_line is not None and start_line < 1:
        raise ToolError("start_line counts from 1; ask again with start_line=1 or later.")
    if start_line is not None and end_line is not None and end_line < start_line:
        raise ToolError(f"end_line ({end_line}) is before start_line ({start_line}).")
    first = start_line or 1

    try:
        with open_confined(real_root, target.relative_to(real_root)) as (fd, info):
            handle = os.fdopen(os.dup(fd), "rb")
    except FileNotFoundError:
        raise ToolError(f"'{shown}' disappeared while it was being opened; try again.") from None
    with handle:
        head = handle.read(BINARY_SNIFF_BYTES)
        if is_binary(head):
            raise ToolError(
                f"'{shown}' is a binary file ({info.st_size:,} bytes); read_file only shows "
                "text files."
            )
        # A byte-order mark is not part of line 1 (propose_edit keeps it first: see
        # agents.patch_review.line_edit), so neither shown nor counted.
        start = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
        handle.seek(start)
        lines, cut_at = _take_lines(handle, first, end_line)
        handle.seek(start)
        total, counted_all = _count_lines(handle)

    if not lines:
        if total == 0:
            return f"{shown} is empty (0 lines)."
        raise ToolError(f"'{shown}' has only {total} lines; ask for lines 1-{total} or fewer.")
    last = first + len(lines) - 1
    width = len(str(last))
    body = "\n".join(f"{n:>{width}} | {text}" for n, text in enumerate(lines, start=first))
    of_total = str(total) if counted_all else f"more than {total:,}"
    header = f"{shown} (lines {first}-{last} of {of_total})"
    if cut_at is None:
        return f"{header}\n{body}"
    wanted_end = total if end_line is None else min(end_line, total)
    next_end = min(last + len(lines), wanted_end)
    notice = (
        f"[truncated at {cut_at}: showing lines {first}-{last} of {of_total}; "
        f"ask for lines {last + 1}-{next_end} with start_line/end_line to read on]"
    )
    return f"{header}\n{body}\n{notice}"


def _quoted(shown: str) -> str:
    """A project path as a sentence quotes it: a very long one keeps its start and end."""
    return shown if len(shown) <= 80 else f"{shown[:60]}...{shown[-12:]}"


def _take_lines(handle: BinaryIO, first: int, end_line: int | None) -> tuple[list[str], str | None]:
    """Decoded lines from ``first`` to ``end_line`` within the caps, and which cap cut them
    (``None`` when the requested range, or the file, ended first)."""
    lines: list[str] = []
    used = 0
    for line_no, raw in enumerate(_bounded_lines(handle), start=1):
        if line_no < first:
            continue
        if end_line is not None and line_no > end_line:
            return lines, None
        if len(lines) >= MAX_READ_LINES:
            return lines, f"{MAX_READ_LINES:,} lines"
        if lines and used + len(raw) > MAX_READ_BYTES:
            return lines, f"{MAX_READ_BYTES // 1000} KB"
        used += len(raw)
        lines.append(_decode_line(raw))
    return lines, None


def _bounded_lines(handle: BinaryIO) -> Iterator[bytes]:
    """The file's lines, each cut to :data:`MAX_READ_BYTES` (the rest of a longer line is
    skipped, not held: a sparse or generated file can hold one line of gigabytes). The rest is
    skipped only when the next line is asked for: a reader that stops at its cap on that line
    does not read through gigabytes it will not show."""
    while raw := handle.readline(MAX_READ_BYTES):
        yield raw
        if not raw.endswith(b"\n"):
            while (rest := handle.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass


def _decode_line(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
    if len(text) > MAX_LINE_CHARS:
        text = text[:MAX_LINE_CHARS] + f" ... [line cut at {MAX_LINE_CHARS} characters]"
    return text


COUNT_BYTES = 64_000_000
"""Lines are counted in at most this much of a file; past it the total is "more than"."""


def _count_lines(handle: BinaryIO) -> tuple[int, bool]:
    """Lines in the file (a last line without a newline counts), and whether the count
    covers the whole file (it stops after :data:`COUNT_BYTES`)."""
    count = 0
    last = b"\n"
    read = 0
    while chunk := handle.read(1 << 20):
        count += chunk.count(b"\n")
        last = chunk[-1:]
        read += len(chunk)
        if read >= COUNT_BYTES:
            return count, False
    return count + (0 if last == b"\n" else 1), True


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Translate a glob (``*``, ``?``, ``[...]``, ``**`` across folders) to a regex."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            close = pattern.find("]", i + 1)
            if close < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : close].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = close + 1
                continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def _is_skipped_folder(root: Path, folder: Path) -> bool:
    """Whether ``folder`` is, or is inside, a folder the listing always skips."""
    current = folder
    while current != root and root in current.parents:
        if current.name in SKIPPED_DIR_NAMES or (current / "pyvenv.cfg").is_file():
            return True
        current = current.parent
    return False


IS_A_FILE = "is a file, not a folder"
"""What ``list_files`` says when it is given a file (the offline rules read it instead)."""


def list_project_files(root: Path, directory: str = ".", pattern: str | None = None) -> str:
    """Project files under ``directory`` (recursively), optionally filtered by a glob.

    A pattern without ``/`` matches file names at any depth (``*.py``); a pattern with ``/``
    matches the path relative to ``directory`` (``src/**/test_*.py``).
    """
    real_root = resolve_inside(root, ".")
    folder = resolve_project_path(root, directory)
    shown = relative_display(real_root, folder)
    if not folder.is_dir():
        if folder.is_file():
            raise ToolError(f"'{shown}' {IS_A_FILE}; use read_file to read it.")
        raise ToolError(f"There is no folder '{shown}' in the project; try list_files('.').")
    if _is_skipped_folder(real_root, folder):
        return (
            f"{shown}/ is skipped: .git, virtualenvs, node_modules and caches are not listed "
            "or searched. If you need a file in it, read it by its path with read_file."
        )
    listing = project_files(real_root, folder)
    prefix = "" if shown == "." else shown + "/"
    paths = listing.paths
    if pattern:
        pattern = pattern.replace("\\", "/").removeprefix("./")
        matcher = glob_to_regex(pattern)
        if "/" in pattern:
            paths = [p for p in paths if matcher.match(p[len(prefix) :])]
        else:
            paths = [p for p in paths if matcher.match(p.rsplit("/", 1)[-1])]
    base = str(real_root)
    paths = [p for p in paths if os.path.lexists(os.path.join(base, p))]
    where = "the project" if shown == "." else f"{shown}/"
    what = f" matching '{pattern}'" if pattern else ""
    if not paths:
        empty = (
            f"No files{what} in {where} (ignored files, .git, virtualenvs, node_modules and "
            "caches are not listed)."
        )
        return f"{empty}\n{unreadable_note(listing.unreadable)}" if listing.unreadable else empty
    shown_paths = paths[:MAX_LISTED]
    noun = "file" if len(paths) == 1 else "files"
    header = f"{len(paths)} {noun}{what} in {where}:"
    lines = [header, *shown_paths]
    if len(paths) > MAX_LISTED:
        lines.append(
            f"... and {len(paths) - MAX_LISTED} more not shown; narrow with directory= or "
            "pattern= (e.g. pattern='*.py')."
        )
    if listing.capped:
        lines.append("(The listing stopped early: the folder holds a very large number of files.)")
    if listing.unreadable:
        lines.append(unreadable_note(listing.unreadable))
    return "\n".join(lines)


def unreadable_note(folders: int) -> str:
    """The listing's sentence for folders it could not open."""
    noun = "folder" if folders == 1 else "folders"
    return (
        f"({folders} {noun} could not be opened and {'is' if folders == 1 else 'are'} left out: "
        "no permission, or a path longer than the system allows.)"
    )
