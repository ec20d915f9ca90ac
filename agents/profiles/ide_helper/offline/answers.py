"""Final answers about code, written from what the ide-helper's tools returned this turn.

A read file is summarised (size, language, opening docstring, the functions and classes a
simple parse finds, where the user's terms occur); a listing is counted and grouped; search
matches are listed as ``file:line``; a proposed patch is shown as a diff with its size.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from agents.offline.conversation import Conversation, ToolResult
from agents.offline.text import code_span, fenced, human_list, plural, shorten
from agents.patch_review.patches import line_span
from agents.profiles.ide_helper.offline.edits import numbered_lines
from agents.profiles.ide_helper.offline.intent import CodeIntent

_LANGUAGES = {
    ".py": "Python",
    ".md": "Markdown",
    ".toml": "TOML",
    ".json": "JSON",
    ".yaml": "YAML",
    ".yml": "YAML",
    ".js": "JavaScript",
    ".ts": "TypeScript",
    ".tcss": "Textual CSS",
    ".sh": "shell",
    ".rs": "Rust",
    ".go": "Go",
    ".txt": "text",
    ".cfg": "INI",
    ".ini": "INI",
}
_FENCES = {"Python": "python", "Markdown": "markdown", "TOML": "toml", "JSON": "json",
           "YAML": "yaml", "JavaScript": "javascript", "TypeScript": "typescript", "shell": "bash",
           "Rust": "rust", "Go": "go"}  # fmt: skip
_PREVIEW_LINES = 8
"""How many of a read file's first lines the answer shows."""
_DEFINITION = re.compile(r"^\s*(?:async\s+)?(def|class|function|fn|func)\s+([A-Za-z_]\w*)")
_HIT = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):\s?(?P<text>.*)$")


def answer(conv: Conversation, intent: CodeIntent) -> str:
    """The final answer for this turn, one section per tool result."""
    patched = bool(conv.results_of("propose_edit"))
    overview = intent.wants_overview and not intent.wants_list
    results = list(conv.results)
    if overview or intent.symbol:  # what it is (a README, a definition) before the rest
        results.sort(key=lambda r: r.name != "read_file")
    sections = []
    for i, result in enumerate(results):
        if result.is_error and _recovered(result, results[i + 1 :]):
            continue
        if _found_then_read(result, results[i + 1 :]):
            continue
        if patched and result.name == "read_file" and not result.is_error:
            sections.append(_brief_read(result))
        elif overview and result.name == "list_files" and not result.is_error:
            sections.append(_describe_listing(result, condensed=True))
        elif intent.symbol and result.name == "search_code" and conv.results_of("read_file"):
            sections.append(_describe_uses(result, intent.symbol))
        else:
            sections.append(_section(result, intent))
    sections = [s for s in sections if s]
    if intent.wants_edit and not conv.results_of("propose_edit"):
        sections.append(_why_no_edit(conv, intent))
    return "\n\n".join(sections).strip() or "The tools returned nothing I could use."


def _target(result: ToolResult) -> str:
    value = result.args.get("path") or result.args.get("directory") or ""
    return PurePosixPath(str(value)).name


def _recovered(failed: ToolResult, later: list[ToolResult]) -> bool:
    """A failed call that a later call on the same file made good (``app.py`` not at the root,
    then found and read; a "folder" that was a file, then read), which the answer need not
    recount."""
    if failed.name not in ("read_file", "list_files"):
        return False  # a refused edit stays in the answer whatever came after it
    name = _target(failed)
    return bool(name) and any(
        r.name == "read_file" and not r.is_error and _target(r) == name for r in later
    )


def _found_then_read(listing: ToolResult, later: list[ToolResult]) -> bool:
    """A listing that only looked for one file by name (``pattern="cli.py"``), which a later
    call then read: the read is the answer, the search for it a step on the way."""
    pattern = str(listing.args.get("pattern") or "")
    if listing.name != "list_files" or listing.is_error or not pattern or "*" in pattern:
        return False
    return any(r.name == "read_file" and not r.is_error and _target(r) == pattern for r in later)


def _brief_read(result: ToolResult) -> str:
    lines = numbered_lines(result.content)
    return (
        f"I read `{result.args.get('path')}` ({plural(len(lines), 'line')}) to prepare the change."
    )


def search_hits(text: str) -> list[tuple[str, int, str]]:
    """``file:line: text`` lines of a ``search_code`` result."""
    hits = []
    for line in text.splitlines():
        match = _HIT.match(line.strip())
        if match:
            hits.append((match.group("path"), int(match.group("line")), match.group("text")))
    return hits


def _section(result: ToolResult, intent: CodeIntent) -> str:
    if result.is_error:
        target = result.args.get("path") or result.args.get("query") or result.args.get("directory")
        where = f" on `{target}`" if target else ""
        return f"`{result.name}`{where} did not work: {shorten(_prose_of(result.content), 240)}"
    if result.name == "read_file":
        return _describe_file(result, intent)
    if result.name == "list_files":
        return _describe_listing(result)
    if result.name == "search_code":
        return _describe_hits(result)
    if result.name == "propose_edit":
        return _describe_patch(result)
    return ""


def _describe_file(result: ToolResult, intent: CodeIntent) -> str:
    path = str(result.args.get("path", "the file"))
    lines = numbered_lines(result.content)
    numbers = sorted(lines)
    language = _LANGUAGES.get(PurePosixPath(path).suffix.lower(), "text")
    if not numbers:
        return f"**`{path}`** is empty."
    if intent.symbol and definition_of(intent.symbol, lines[numbers[0]]):
        numbers = _body_of(lines, numbers)  # the definition asked about, not what follows it
    span = line_span(numbers[0], numbers[-1])
    if whole := re.search(r"\(lines \d+-\d+ of (\d+)\)", result.content):
        span += f" of {whole.group(1)}"
    parts = [f"**`{path}`**: {plural(len(numbers), 'line')} of {language} ({span})."]
    if "[truncated" in result.content.lower():
        parts[0] += " The tool truncated it, so this covers the part it returned."
    opening = _definition_doc(lines, numbers) or _opening_line(lines, numbers, language)
    if opening and len(numbers) > _PREVIEW_LINES:  # else the preview below shows it all
        parts.append(f"> {opening}")
    definitions = [
        (kind, name, n)
        for n in numbers
        if (m := _DEFINITION.match(lines[n])) and (kind := m.group(1)) and (name := m.group(2))
    ]
    if definitions:
        classes = [f"`{name}` (line {n})" for kind, name, n in definitions if kind == "class"]
        functions = [f"`{name}` (line {n})" for kind, name, n in definitions if kind != "class"]
        listed = []
        if classes:
            listed.append(f"- classes: {human_list(classes[:8])}")
        if functions:
            more = f" and {len(functions) - 10} more" if len(functions) > 10 else ""
            listed.append(f"- functions: {human_list(functions[:10])}{more}")
        parts.append("It defines:\n" + "\n".join(listed))
    headings = [lines[n].strip() for n in numbers if re.match(r"#{1,3} ", lines[n])]
    if language == "Markdown" and headings:
        parts.append("Sections:\n" + "\n".join(f"- {h.lstrip('#').strip()}" for h in headings[:8]))
    mentions = "" if intent.symbol else _mentions(lines, numbers, intent, path)
    if mentions:
        parts.append(mentions)
    preview = [lines[n] for n in numbers[:_PREVIEW_LINES]]
    fence = _FENCES.get(language, "")
    lead = "It reads:" if len(numbers) <= _PREVIEW_LINES else "It starts with:"
    parts.append(f"{lead}\n\n" + fenced("\n".join(preview), fence))
    return "\n\n".join(parts)


def _body_of(lines: dict[int, str], numbers: list[int]) -> list[int]:
    """The lines of the definition that ``numbers`` starts with: its header up to the line
    ending in ``:``, then every line indented deeper (blank lines included, trailing ones not)."""
    first = lines[numbers[0]]
    base = len(first) - len(first.lstrip())
    body = [numbers[0]]
    header_open = not first.rstrip().endswith(":")
    for n in numbers[1:]:
        text = lines[n]
        if header_open:
            body.append(n)
            header_open = not text.rstrip().endswith(":")
            continue
        if text.strip() and len(text) - len(text.lstrip()) <= base:
            break
        body.append(n)
    while len(body) > 1 and not lines[body[-1]].strip():
        body.pop()
    return body


def _definition_doc(lines: dict[int, str], numbers: list[int]) -> str:
    """The first line of the docstring of a definition the read starts at, if it has one."""
    if not numbers or not _DEFINITION.match(lines[numbers[0]]):
        return ""
    for n in numbers[1:4]:
        text = lines[n].strip()
        if text.startswith(('"""', "'''", 'r"""')):
            first = text.removeprefix("r").strip("\"'").strip()
            if not first and n + 1 in lines:
                first = lines[n + 1].strip().strip("\"'").strip()
            return shorten(first, 160)
        if text and not text.startswith("@"):
            break
    return ""


def _describe_uses(result: ToolResult, symbol: str) -> str:
    """Where ``symbol`` occurs, by file: the answer's second part after its definition."""
    hits = search_hits(result.content)
    others = [(path, n) for path, n, text in hits if not definition_of(symbol, text)]
    if not others:
        return f"`{symbol}` is used nowhere else in the project."
    files = Counter(path for path, _ in others)
    shown = ", ".join(f"`{path}` ({count})" for path, count in files.most_common(6))
    more = f" and {len(files) - 6} more files" if len(files) > 6 else ""
    return (
        f"`{symbol}` occurs on {plural(len(others), 'other line')} in "
        f"{plural(len(files), 'file')}: {shown}{more}."
    )


def definition_of(symbol: str, text: str) -> bool:
    """Whether the line ``text`` defines ``symbol`` (``def symbol``, ``class symbol``)."""
    return re.match(rf"\s*(?:async\s+)?(?:def|class)\s+{re.escape(symbol)}\b", text) is not None


def _opening_line(lines: dict[int, str], numbers: list[int], language: str = "") -> str:
    if language == "Markdown":
        prose = (lines[n].strip() for n in numbers[:40])
        return next(
            (shorten(t, 160) for t in prose if t and not t.startswith(("#", "```", "<", "!["))), ""
        )
    in_docstring = False
    for n in numbers[:15]:
        raw = lines[n].strip()
        text = raw.strip('"').strip("'").strip()
        if raw in ('"""', "'''", 'r"""'):
            in_docstring = True
            continue
        if text.startswith("#!") or not text or text.startswith(("from ", "import ")):
            continue
        if in_docstring or raw.startswith(('"""', "'''", "#", "//")) or language == "text":
            return shorten(text.lstrip("#/ ").strip(), 160)
        break
    return ""


def _mentions(lines: dict[int, str], numbers: list[int], intent: CodeIntent, path: str) -> str:
    term = intent.search_term or (intent.rename[0] if intent.rename else None)
    if not term or term in (path, PurePosixPath(path).name):  # the file's own name
        return ""
    found = [n for n in numbers if term in lines[n]]
    if not found:
        return f"`{term}` does not appear in the part I read."
    shown = ", ".join(str(n) for n in found[:12])
    return f"`{term}` appears on {plural(len(found), 'line')}: {shown}."


def _describe_listing(result: ToolResult, condensed: bool = False) -> str:
    directory = str(result.args.get("directory") or ".")
    pattern = result.args.get("pattern")
    entries: list[str] = []
    notes: list[str] = []
    for line in result.content.splitlines():
        text = line.strip().lstrip("-* ").strip()
        if text:
            (entries if re.fullmatch(r"[\w./@+-]+/?", text) else notes).append(text)
    matching = f" matching `{pattern}`" if pattern else ""
    if not entries:
        note = f" ({shorten(' '.join(notes), 160)})" if notes else ""
        return f"Nothing is listed in {folder_name(directory)}{matching}{note}."
    stated = next((int(m.group(1)) for n in notes if (m := re.match(r"(\d+) files?\b", n))), None)
    total = max(stated or 0, len(entries))
    prefix = "" if directory in (".", "./") else directory.rstrip("/") + "/"
    below = [e.removeprefix(prefix) for e in entries]
    folders = Counter(e.split("/")[0] + "/" for e in below if "/" in e.strip("/"))
    kinds = Counter(
        PurePosixPath(e).suffix or "(no extension)" for e in entries if not e.endswith("/")
    )
    summary = []
    if len(kinds) > 1 or condensed:
        summary.append("by type: " + ", ".join(f"{k} ×{v}" for k, v in kinds.most_common(5)))
    if len(folders) > 1 or (folders and condensed):
        summary.append("folders: " + ", ".join(f"`{k}` ({v})" for k, v in folders.most_common(5)))
    where = folder_name(directory)
    head = f"{where[0].upper()}{where[1:]} holds {plural(total, 'file')}{matching}"
    head += f" ({'; '.join(summary)})." if summary else "."
    if condensed:
        return head
    shown = "\n".join(f"- `{e}`" for e in entries[:15])
    more = f"\n- … and {total - 15} more" if total > 15 else ""
    extra_notes = [n for n in notes if not re.match(r"\d+ files?\b", n)]
    notes_line = f"\n\n_{shorten(extra_notes[-1], 160)}_" if extra_notes else ""
    return f"{head}\n\n{shown}{more}{notes_line}"


def folder_name(directory: str) -> str:
    """How an answer names a folder: "the project" for its root, else the path as code."""
    return "the project" if directory.strip() in ("", ".", "./") else f"`{directory}`"


def _describe_hits(result: ToolResult) -> str:
    query = result.args.get("query", "")
    hits = search_hits(result.content)
    if not hits:
        return shorten(result.content, 200) or f"No matches for `{query}`."
    files = list(dict.fromkeys(path for path, _, _ in hits))
    lines = [
        f"- `{path}:{n}`: {code_span(shorten(text.strip(), 90))}" for path, n, text in hits[:12]
    ]
    more = f"\n- … and {len(hits) - 12} more" if len(hits) > 12 else ""
    head = f"Found {plural(len(hits), 'match', 'matches')} for `{query}` in {plural(len(files), 'file')}:"
    definition = next((h for h in hits if definition_of(str(query), h[2])), None)
    tail = f"\n\nIt is defined in `{definition[0]}` at line {definition[1]}." if definition else ""
    return f"{head}\n\n" + "\n".join(lines) + more + tail


def _describe_patch(result: ToolResult) -> str:
    path = result.args.get("path", "the file")
    text = result.content.strip()
    block = re.search(r"```diff\n(.*?)```", text, re.S)
    diff = block.group(1) if block else text
    status = text[: block.start()].strip() if block else ""
    diff_lines = diff.rstrip("\n").splitlines()
    added = sum(1 for x in diff_lines if x.startswith("+") and not x.startswith("+++"))
    removed = sum(1 for x in diff_lines if x.startswith("-") and not x.startswith("---"))
    if not (added or removed):
        return f"The proposed change to `{path}`: {shorten(text, 300)}"
    shown = "\n".join(diff_lines[:40]) + ("\n…" if len(diff_lines) > 40 else "")
    lower = status.lower()
    if "rejected" in lower or "applied" in lower or "accepted" in lower:
        outcome = status
    else:
        outcome = "Nothing is written until you accept it in the patch review."
    return (
        f"I proposed a change to `{path}` ({_span_of(result.args)}): {plural(added, 'line')} added, "
        f"{plural(removed, 'line')} removed.\n\n{fenced(shown, 'diff')}\n\n{outcome}"
    )


def _why_no_edit(conv: Conversation, intent: CodeIntent) -> str:
    reads = [r for r in conv.results_of("read_file") if not r.is_error]
    if not intent.files and not conv.results_of("search_code"):
        return "Tell me which file to change (for example `rename old to new in path/to/file.py`)."
    if not reads:
        return "I could not read the file, so I have not proposed a change."
    if not conv.has_tool("propose_edit"):
        return "I can't propose edits in this turn; ask again and I'll prepare the patch."
    path = reads[-1].args.get("path")
    if intent.rename:
        return f"`{intent.rename[0]}` does not occur in `{path}`, so there is nothing to change."
    target = f"`{intent.docstring_target}`" if intent.docstring_target else "a function or class"
    return f"I found no {target} without a docstring in `{path}`, so I left it as it is."


def _span_of(args: Mapping[str, Any]) -> str:
    """The proposed range from the call's arguments (as given, if they are not numbers)."""
    start, end = args.get("start_line"), args.get("end_line")
    if isinstance(start, int) and isinstance(end, int):
        return line_span(start, end)
    return f"lines {start}-{end}"


def _prose_of(content: str) -> str:
    """A tool's message without its fenced blocks (a stale diff, a listing) and the line that
    introduces one, on one line: what to quote in an answer."""
    text = re.sub(r"```.*?(?:```|\Z)", "", content, flags=re.S)
    kept = [line for line in text.splitlines() if line.strip() and not line.rstrip().endswith(":")]
    return " ".join(" ".join(kept).split())
