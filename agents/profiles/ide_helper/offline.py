"""The ide-helper's offline demo: list, read and search files, and propose a literal rename.

The agent node's step reads exact signals from the last user message, never its phrasing: a
path that is a file or a folder of the project, a glob (``*.py``), a term in backticks or
quotes or a code-like name (``load_config``, ``Greeter()``), and two quoted literals for a
rename (`` `old` `` → `` `new` ``). Each round it calls what is still missing, then answers
from this turn's tool results.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from agents.offline import OfflineSteps, OfflineTurn, PlannedCall, Reply, cannot
from agents.offline.text import fenced
from agents.offline.turn import ToolResult

READ, LIST, SEARCH, EDIT = "read_file", "list_files", "search_code", "propose_edit"
CAN = (
    "Offline I can list files (name a folder, a glob like `*.py`, or ask for the files), read a "
    "file you name by its path, search for a term you put in backticks or double quotes (type "
    '`` `load config` `` or `"load config"`) or a code name like `load_config`, and rename a '
    "literal: type `` rename `old` to `new` in path/to/file.py ``."
)
NAME_THE_FILE = "Name the file: type `` rename `old` to `new` in path/to/file.py ``."
LIST_WORDS = frozenset({"list", "files", "ls", "tree", "folders", "structure"})
PREVIEW = 15
BLOCK = 60
TRUNCATED = "\n[truncated at "
"""How read_file says it did not show the whole file."""
_EDGE = "\"'`()[]{}<>,;:!?"


@dataclass(frozen=True, slots=True)
class Ask:
    """The exact signals of one request."""

    files: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    term: str | None = None
    rename: tuple[str, str] | None = None
    wants_list: bool = False
    missing: tuple[str, ...] = ()
    """Paths the words name that are not files of the project (a rename there reads them,
    fails, and changes nothing: never another file instead)."""

    @property
    def empty(self) -> bool:
        return not (self.files or self.folders or self.globs or self.term or self.rename)


def quoted(text: str) -> list[str]:
    """Literals written in backticks or double quotes, in order."""
    found = [*text.split("`")[1::2], *text.split('"')[1::2]]
    return [q for q in dict.fromkeys(q.strip() for q in found) if q and "\n" not in q]


def _pathlike(token: str) -> bool:
    name = token.rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    extension = bool(dot and stem and ext.isalnum() and not ext.isdigit() and len(ext) <= 5)
    return "/" in token or extension


def _code_like(token: str) -> bool:
    bare = token.removesuffix("()")
    if not bare.isidentifier():
        return False
    camel = any(a.islower() and b.isupper() for a, b in itertools.pairwise(bare))
    return "_" in bare.strip("_") or camel or token.endswith("()")


def read_ask(text: str, root: Path | None) -> Ask:
    """The signals in ``text``; with a project ``root``, paths are checked against it."""
    literals = quoted(text)
    tokens = [t.strip(_EDGE).rstrip(".") for t in text.split()]
    files, folders, globs, names, missing = [], [], [], [], []
    for token in dict.fromkeys(t.removeprefix("./") for t in tokens if t):
        safe = not token.startswith("/") and ".." not in token.split("/")
        if "*" in token:
            globs.append(token)
        elif safe and root is not None and (root / token).is_dir() and token != ".":
            folders.append(token.rstrip("/"))
        elif safe and _pathlike(token) and (root is None or (root / token).is_file() or "/" not in token):  # fmt: skip
            files.append(token)
        elif safe and _pathlike(token):
            missing.append(token)
        elif _code_like(token):
            names.append(token.removesuffix("()"))
    words = {w.lower().strip(_EDGE + ".") for w in text.split()}
    # a change only when the user's words ask for the one the demo makes: a rename
    asked = "rename" in words
    rename = (literals[0], literals[1]) if asked and len(literals) >= 2 else None
    terms = [q for q in literals if q not in files] + names
    return Ask(
        files=tuple(f for f in files if f not in literals),
        folders=tuple(folders),
        globs=tuple(globs),
        term=None if rename else (terms[0] if terms else None),
        rename=rename,
        wants_list=bool(words & LIST_WORDS),
        missing=tuple(missing),
    )


def agent(turn: OfflineTurn) -> Reply:
    """Call what the request still needs; with nothing left to call, answer from the results."""
    root = getattr(turn.context, "project_root", None)
    ask = read_ask(turn.user_text, Path(root) if root is not None else None)
    results = turn.results
    planned = _plan(ask, results) if turn.tools else []
    calls = [c for c in planned if c.name in turn.tools and not turn.called(c.name, c.args)]
    if calls:
        return Reply(text=_preface(calls), calls=tuple(calls))
    if results:
        return Reply(text=answer(ask, results))
    if ask.rename and not (ask.files or ask.missing):
        return Reply(text=cannot("guess which file to rename in", NAME_THE_FILE))
    if ask.empty and not ask.wants_list:
        return Reply(text=cannot("answer questions about code in general", CAN))
    return Reply(text=cannot("use the project's tools in this turn", CAN))


def _plan(ask: Ask, results: list[ToolResult]) -> list[PlannedCall]:
    if ask.rename:
        return _plan_rename(ask, ask.rename, results)
    calls = [PlannedCall(LIST, {"directory": folder}) for folder in ask.folders]
    calls += [PlannedCall(LIST, {"directory": ".", "pattern": glob}) for glob in ask.globs]
    for name in ask.files[:4]:
        calls += _read(name, results)
    if ask.term:
        calls.append(PlannedCall(SEARCH, {"query": ask.term}))
    if not calls and ask.wants_list:
        calls.append(PlannedCall(LIST, {"directory": "."}))
    return calls


def _read(name: str, results: list[ToolResult]) -> list[PlannedCall]:
    """Read ``name``; a bare name not at the root is looked for, then read where it is."""
    calls = [PlannedCall(READ, {"path": name})]
    failed = any(r.name == READ and r.is_error and r.args.get("path") == name for r in results)
    if failed and "/" not in name:
        calls.append(PlannedCall(LIST, {"directory": ".", "pattern": name}))
        calls += [PlannedCall(READ, {"path": p}) for p in _listed(results, name)[:2]]
    return calls


def _listed(results: list[ToolResult], name: str) -> list[str]:
    found: list[str] = []
    for r in results:
        if r.name == LIST and not r.is_error and r.args.get("pattern") == name:
            found += [line.strip() for line in r.content.splitlines()[1:] if line.endswith(name)]
    return found


def _plan_rename(ask: Ask, rename: tuple[str, str], results: list[ToolResult]) -> list[PlannedCall]:
    """Read the file the words name, then propose the rename in it: only there (a file named
    but missing is read, fails and changes nothing; with no file named, nothing is planned)."""
    old, new = rename
    named = [*ask.files, *ask.missing]
    if not named:
        return []
    path = named[0]
    calls = _read(path, results)
    read = next((r for r in reversed(results) if r.name == READ and not r.is_error), None)
    whole = read is not None and TRUNCATED not in read.content
    if read is not None and whole and not any(r.name == EDIT for r in results):
        edit = rename_edit(numbered(read.content), old, new)
        if edit is not None:
            calls.append(PlannedCall(EDIT, {"path": read.args.get("path", path), **edit}))
    return calls


def numbered(read_output: str) -> dict[int, str]:
    """Line number → text, from ``read_file``'s ``  12 | text`` lines."""
    lines: dict[int, str] = {}
    for line in read_output.split("\n"):  # read_file's lines: a form feed or U+2028 is text
        number, bar, text = line.partition(" | ")
        if bar and number.strip().isdigit():
            lines[int(number)] = text
    return lines


def _occurrence(old: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(old)}(?!\w)" if old.isidentifier() else re.escape(old))


def rename_hits(lines: dict[int, str], old: str) -> list[int]:
    """The lines holding ``old`` (a whole word when it is one)."""
    pattern = _occurrence(old)
    return [n for n, text in sorted(lines.items()) if pattern.search(text)]


def rename_edit(lines: dict[int, str], old: str, new: str) -> dict[str, Any] | None:
    """Replace every ``old`` (a whole word when it is one) with ``new`` in the run of lines
    holding them; ``None`` when there is none, or when one patch cannot hold them all (further
    apart than :data:`BLOCK` lines, or not all of them read): every occurrence or none, never
    the first alone."""
    hits = rename_hits(lines, old)
    if not hits:
        return None
    start, end = hits[0], hits[-1]
    if end - start > BLOCK or any(n not in lines for n in range(start, end + 1)):
        return None
    pattern = _occurrence(old)
    block = [pattern.sub(lambda _m: new, lines[n]) for n in range(start, end + 1)]
    return {"start_line": start, "end_line": end, "new_content": "\n".join(block)}


def hits_of(search_output: str) -> list[tuple[str, int, str]]:
    """``file:line: text`` lines of a ``search_code`` result."""
    hits = []
    for line in search_output.splitlines():
        path, _, rest = line.partition(":")
        number, colon, text = rest.partition(":")
        if colon and number.isdigit() and path:
            hits.append((path, int(number), text.strip()))
    return hits


def _preface(calls: list[PlannedCall]) -> str:
    said = {
        READ: "read `{path}`",
        LIST: "list the files in `{directory}` matching `{pattern}`",
        "top": "list the project's files matching `{pattern}`",
        SEARCH: "search the code for `{query}`",
        EDIT: "propose a change to `{path}` for your review",
    }
    steps = [
        said["top" if c.name == LIST and c.args.get("directory", ".") in (".", "") else c.name]
        .format_map({"directory": ".", "pattern": "*", **c.args})
        .replace(" matching `*`", "")
        for c in calls
    ]
    return "I'll " + ", then ".join(dict.fromkeys(steps)) + "."


def answer(ask: Ask, results: list[ToolResult]) -> str:
    """One section per tool result; a failure that a later call made good is left out."""
    sections = []
    # the file as read before a patch the review applied is no longer what it holds
    changed = {str(r.args.get("path")) for r in results if r.name == EDIT and not r.is_error}
    for i, result in enumerate(results):
        later = results[i + 1 :]
        if result.is_error and any(r.name == READ and not r.is_error for r in later):
            continue
        if result.name == READ and str(result.args.get("path")) in changed:
            continue
        sections.append(_section(result))
    if ask.rename and not any(r.name == EDIT for r in results):
        sections.append(_no_rename(ask.rename[0], results))
    return "\n\n".join(s for s in sections if s) or "The tools returned nothing."


def _no_rename(old: str, results: list[ToolResult]) -> str:
    """Why no rename was proposed: ``old`` is not in what was read, or one patch cannot change
    every occurrence (a rename of some of them would be a wrong result)."""
    read = next((r for r in reversed(results) if r.name == READ and not r.is_error), None)
    if read is None or not (hits := rename_hits(numbered(read.content), old)):
        return f"`{old}` does not occur in what I read, so I proposed no change."
    where = ", ".join(str(n) for n in hits[:8]) + (" and more" if len(hits) > 8 else "")
    return (
        f"`{old}` occurs on lines {where} of `{read.args.get('path')}`, too far apart (or the "
        "file too long to read whole) for one patch to change every one, and changing some of "
        "them would leave the rename half done, so I proposed no change. A connected model "
        "can propose one patch per place."
    )


def _section(result: ToolResult) -> str:
    if result.is_error:
        target = next((str(v) for v in result.args.values() if isinstance(v, str)), "")
        return f"`{result.name}` on `{target}` did not work: {result.content.strip()}"
    lines = result.content.strip().splitlines()
    if result.name == READ:
        return _describe_read(result, lines)
    if result.name == SEARCH:
        shown = [f"- `{p}:{n}`: {t[:90]}" for p, n, t in hits_of(result.content)[:12]]
        return "\n".join([f"Search for `{result.args.get('query')}`: {lines[-1]}", *shown])
    if result.name == LIST:
        more = f"\n- … and {len(lines) - 21} more" if len(lines) > 21 else ""
        return "\n".join([lines[0], *(f"- `{p}`" for p in lines[1:21])]) + more
    if result.name == EDIT:  # the review's outcome: applied, rejected, a conflict
        return result.content.strip()
    return ""


def _describe_read(result: ToolResult, lines: list[str]) -> str:
    path = str(result.args.get("path", ""))
    body = numbered(result.content)
    defined = [
        f"`{text.split('(')[0].split(':')[0].split()[-1]}` (line {n})"
        for n, text in body.items()
        if text.lstrip().startswith(("def ", "class ", "async def "))
    ]
    parts = [f"**`{path}`** {lines[0].removeprefix(path).strip() if lines else 'is empty'}."]
    if defined:
        parts.append("It defines " + ", ".join(defined[:12]) + ".")
    preview = "\n".join(body[n] for n in sorted(body)[:PREVIEW])
    language = {".py": "python", ".md": "markdown", ".toml": "toml"}.get(
        PurePosixPath(path).suffix, ""
    )
    parts.append(fenced(preview, language))
    if len(body) > PREVIEW:
        parts.append(f"… {len(body) - PREVIEW} more lines.")
    return "\n\n".join(parts)


STEPS: OfflineSteps = {"agent": agent}
"""Registered as the profile's ``offline``."""
