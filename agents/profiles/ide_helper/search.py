"""``search_code``'s engine: find lines in the project's text files, fast and bounded.

One scan on every platform: the file set comes from :mod:`project_files` (git's own listing
in a git work tree, so ignored files cost nothing), and each file is scanned in Python. For a
literal query in a git work tree, ``git grep -l`` first narrows the files to read (a pure
prefilter: the matches still come from the scan). Fixed strings are looked for in the raw
bytes first (``bytes.find`` is a C loop), so only files that can match are decoded and
split into lines; binaries (a NUL byte in the first 8 KiB) and files over
:data:`MAX_FILE_BYTES` are skipped. Regular expressions use Python's ``re`` syntax, the one
the model knows best. ``benchmarks/bench_search_code.py``
measures it against ``grep -rn`` on a 10,000-file tree.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.errors import ToolError
from agents.profiles.ide_helper.project_files import (
    GIT_TIMEOUT_S,
    git_command,
    git_environment,
    project_files,
)
from agents.profiles.ide_helper.search_folders import FILE_FLAGS, FolderHandles
from agents.project_paths import resolve_inside
from agents.text_files import is_binary

MAX_FILE_BYTES = 1_000_000
MAX_RESULTS = 200
"""The most matches one call may ask for."""
COUNT_LIMIT = 10_000
"""Past this many matches the scan stops and the total is reported as "more than"."""
MAX_LINE_CHARS = 200
SEARCH_SECONDS = 10.0
"""A search stops after this long and says so (a slow pattern, a huge tree)."""


@dataclass(slots=True)
class SearchResult:
    """Matches in file order, the total found (up to :data:`COUNT_LIMIT`), and what was skipped."""

    matches: list[tuple[str, int, str]] = field(default_factory=list)
    total: int = 0
    files_with_matches: int = 0
    files_searched: int = 0
    skipped_large: int = 0
    skipped_outside: int = 0
    """Paths that lead out of the project through a linked folder (never read)."""
    skipped_special: int = 0
    """Entries that are not regular files (pipes, sockets, devices: never opened for long)."""
    skipped_linked: int = 0
    """Files with several hard links (one of them may be outside the project: never read)."""
    listing_capped: int = 0
    unreadable_folders: int = 0
    """When the project's file list stopped at its cap: how many files it held (later
    files were not searched)."""
    stopped_early: bool = False
    timed_out: bool = False


def search_project(
    root: Path, query: str, max_results: int = 50, regex: bool = False
) -> SearchResult:
    """Search every project file under the resolved ``root`` for ``query``.

    Smart case: case-insensitive when the query has no upper-case letter.
    """
    if not query:
        raise ToolError("The query is empty; give a word or phrase to search for.")
    if "\n" in query:
        raise ToolError("The query spans several lines; search_code matches one line at a time.")
    max_results = max(1, min(int(max_results), MAX_RESULTS))
    flags = re.MULTILINE | (0 if any(c.isupper() for c in query) else re.IGNORECASE)
    pattern = _compiled(query, flags, regex)
    needle = _byte_needle(query, regex, bool(flags & re.IGNORECASE))
    root = resolve_inside(root, ".")

    result = SearchResult()
    # git grep runs while the file list is built (both are mostly waiting on the disk).
    grep = _start_git_grep(root, query, bool(flags & re.IGNORECASE)) if needle else None
    listing = project_files(root, root)
    paths = listing.paths
    candidates = _git_candidates(grep, use=listing.source == "git") if grep else None
    if candidates is not None:
        result.files_searched = len(paths)
        paths = [p for p in paths if p in candidates]
    result.listing_capped = len(listing.paths) if listing.capped else 0
    result.unreadable_folders = listing.unreadable
    query_ = _Query(pattern, needle, bool(flags & re.IGNORECASE), regex, max_results,
                    deadline=time.monotonic() + SEARCH_SECONDS)  # fmt: skip
    with FolderHandles(root) as folders:
        for rel in paths:
            if time.monotonic() > query_.deadline:
                result.timed_out = True
                break
            if _scan_file(rel, folders, query_, result, counted=candidates is None):
                break
    return result


@dataclass(frozen=True, slots=True)
class _Query:
    pattern: Any
    needle: bytes | None
    ignore_case: bool
    regex: bool
    max_results: int
    deadline: float


def _compiled(query: str, flags: int, regex: bool) -> Any:
    """``query`` compiled: a user's (or a model's) regular expression on the ``regex`` engine,
    which resists catastrophic backtracking and takes a time limit (imported only for one); a
    literal on ``re``."""
    if not regex:
        return re.compile(re.escape(query), flags)
    import regex as regex_engine  # type: ignore[import-untyped]

    try:
        return regex_engine.compile(query, flags)
    except (re.error, regex_engine.error) as err:
        raise ToolError(
            f"The regular expression {query!r} is invalid ({err}); fix it or pass regex=false "
            "to search for the text literally."
        ) from err


def _scan_file(
    rel: str, folders: FolderHandles, query: _Query, result: SearchResult, *, counted: bool
) -> bool:
    """Search one file (``counted``: it adds to the files searched); True when the search
    must stop (its time or its count is spent)."""
    folder_rel, _, name = rel.rpartition("/")
    folder = folders.get(folder_rel)
    if folder is None:  # the folder leads out of the root, or is gone
        if os.path.lexists(os.path.join(folders.root, folder_rel)):
            result.skipped_outside += 1
        return False
    data = _read_candidate(folders, folder, name, rel, result)
    if data is None:
        return False
    if counted:
        result.files_searched += 1
    if query.needle is not None:
        haystack = data.lower() if query.ignore_case else data
        if haystack.find(query.needle) < 0:
            return False
    timeout = max(0.01, query.deadline - time.monotonic()) if query.regex else None
    try:
        found = _scan_text(
            data.decode("utf-8", errors="replace"), query.pattern, rel, result, query.max_results,
            timeout=timeout,
        )  # fmt: skip
    except TimeoutError:
        result.timed_out = True
        return True
    if found:
        result.files_with_matches += 1
    if result.total >= COUNT_LIMIT:
        result.stopped_early = True
        return True
    return False


def _start_git_grep(root: Path, query: str, ignore_case: bool) -> subprocess.Popen[bytes] | None:
    """Start ``git grep -l`` for the literal ``query`` (multi-threaded; it stops reading a
    file at its first match). Its answer narrows the files to read; it never decides a match:
    those still come from the Python scan, so results are the same with or without it."""
    command = git_command("grep", "-l", "-z", "-I", "--untracked", "--no-textconv")
    command += ["-i", "-F"] if ignore_case else ["-F"]
    try:
        return subprocess.Popen(
            [*command, "-e", query, "--", "."],
            cwd=root,
            env=git_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None


def _git_candidates(grep: subprocess.Popen[bytes], *, use: bool) -> set[str] | None:
    """The files ``git grep -l`` named, or ``None`` when it cannot answer (or is not used)."""
    if not use:
        grep.kill()
        grep.communicate()
        return None
    try:
        out, _ = grep.communicate(timeout=GIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        grep.kill()
        grep.communicate()
        return None
    if grep.returncode not in (0, 1):  # 1: no file matched
        return None
    return set(filter(None, out.decode("utf-8", errors="surrogateescape").split("\0")))


def _byte_needle(query: str, regex: bool, ignore_case: bool) -> bytes | None:
    """Bytes every matching file must contain, when that can be known cheaply."""
    if regex or not query.isascii():
        return None
    return query.lower().encode() if ignore_case else query.encode()


def _read_candidate(
    folders: FolderHandles, folder: int, name: str, rel: str, result: SearchResult
) -> bytes | None:
    """The file's bytes, or ``None`` for binaries, large files, unreadable entries, and files
    that are not plain regular files of the project (pipes, devices, other file systems,
    several hard links). Opened from its folder's handle with no link followed; a link
    that stays inside the root is read through the folders it resolves to.

    Raw ``os.open``/``os.read``: on 10,000 small files this is the difference between 0.5 s
    and 0.15 s (``Path`` objects and buffered ``open`` cost more than the read itself).
    """
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=folder)
    except OSError as err:
        if err.errno != errno.ELOOP:
            return None  # a vanished file, a folder (git submodule)
        return _read_linked(folders, rel, result)
    try:
        return _read_checked(fd, folders.root_dev, result)
    finally:
        os.close(fd)


def _read_checked(fd: int, root_dev: int, result: SearchResult) -> bytes | None:
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # a pipe, socket or device would block or never end
            result.skipped_special += 1
            return None
        if info.st_dev != root_dev:
            result.skipped_outside += 1
            return None
        if info.st_nlink > 1:  # the same file as one outside the project, perhaps
            result.skipped_linked += 1
            return None
        if info.st_size > MAX_FILE_BYTES:
            result.skipped_large += 1
            return None
        data = os.read(fd, info.st_size + 1)
    except OSError:
        return None
    return None if is_binary(data) else data


def _read_linked(folders: FolderHandles, rel: str, result: SearchResult) -> bytes | None:
    """A file that is a symbolic link: read where it leads if that is inside the root."""
    base = str(folders.root)
    target = os.path.realpath(os.path.join(base, rel))
    if not target.startswith(base + os.sep):
        return None
    folder_rel, _, name = os.path.relpath(target, base).replace(os.sep, "/").rpartition("/")
    folder = folders.get(folder_rel, follow=False)
    if folder is None:
        return None
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=folder)
    except OSError:
        return None  # swapped for a link again while we looked
    try:
        return _read_checked(fd, folders.root_dev, result)
    finally:
        os.close(fd)


def _scan_text(
    text: str,
    pattern: Any,
    rel: str,
    result: SearchResult,
    max_results: int,
    timeout: float | None = None,
) -> bool:
    """Record one match per matching line; return whether the file matched at all.
    ``timeout`` (a ``regex`` pattern's limit) raises ``TimeoutError`` when spent."""
    line_no = 1
    scanned_to = 0
    last_line = 0
    matched = False
    matches = pattern.finditer(text) if timeout is None else pattern.finditer(text, timeout=timeout)
    for match in matches:
        start = match.start()
        line_no += text.count("\n", scanned_to, start)
        scanned_to = start
        if line_no == last_line:
            continue
        last_line = line_no
        matched = True
        result.total += 1
        if len(result.matches) < max_results:
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", start)
            line = text[line_start : line_end if line_end >= 0 else len(text)].strip()
            if len(line) > MAX_LINE_CHARS:
                line = line[:MAX_LINE_CHARS] + " ..."
            result.matches.append((rel, line_no, line))
        if result.total >= COUNT_LIMIT:
            break
    return matched


def format_search(query: str, result: SearchResult) -> str:
    """The tool's answer: ``file:line: text`` lines and a footer saying what was left out."""
    if not result.matches:
        return (
            f"No matches for {query!r} in {result.files_searched} files "
            f"(ignored, binary and very large files are not searched){_skipped_note(result)}."
        )
    lines = [f"{path}:{line_no}: {text}" for path, line_no, text in result.matches]
    total = f"more than {result.total}" if result.stopped_early else str(result.total)
    footer = (
        f"{total} matching {_noun(result.total, 'line')} in "
        f"{_count(result.files_with_matches, 'file')} ({_count(result.files_searched, 'file')} "
        "searched)"
    )
    shown = len(result.matches)
    if shown < result.total:
        footer += (
            f"; showing the first {shown}. Narrow the query, or raise max_results "
            f"(up to {MAX_RESULTS})"
        )
    footer += _skipped_note(result)
    return "\n".join([*lines, "", footer + "."])


def _skipped_note(result: SearchResult) -> str:
    """What was left unread, and why (empty when nothing was)."""
    note = ""
    if result.skipped_large:
        note += f"; {_count(result.skipped_large, 'file')} over {MAX_FILE_BYTES // 1000} KB skipped"
    if result.skipped_outside:
        note += (
            f"; skipped {_count(result.skipped_outside, 'path')} that "
            f"{'leads' if result.skipped_outside == 1 else 'lead'} outside the project"
        )
    if result.skipped_special:
        special = result.skipped_special
        note += f"; {special} {_noun(special, 'entry')} that {'is' if special == 1 else 'are'} not a regular file skipped"
    if result.skipped_linked:
        linked = result.skipped_linked
        note += f"; {_count(linked, 'file')} with several hard links skipped"
    if result.listing_capped:
        note += (
            f"; the file list stopped at {result.listing_capped:,} files, so later files were not "
            "searched: narrow the project folder"
        )
    if result.unreadable_folders:
        note += (
            f"; {_count(result.unreadable_folders, 'folder')} could not be opened (no "
            "permission, or a path longer than the system allows)"
        )
    if result.timed_out:
        note += (
            f"; the search stopped after {SEARCH_SECONDS:.0f} s (a pattern that backtracks "
            "heavily?): narrow the pattern or the folder"
        )
    return note


def _noun(count: int, noun: str) -> str:
    if count == 1:
        return noun
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"


def _count(count: int, noun: str) -> str:
    """``_count(1, "file")`` -> ``"1 file"``; ``_count(3, "file")`` -> ``"3 files"``."""
    return f"{count} {_noun(count, noun)}"
