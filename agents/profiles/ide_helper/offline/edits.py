"""Real edits computed from the file text a ``read_file`` call returned.

The offline model proposes only edits it can justify from what it read: replacing the text
the user named (word-bounded for identifiers) or adding a docstring under a ``def``/``class``.
Line numbers come from the tool's own numbering, so ``propose_edit`` gets a range that
matches the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.patch_review.patches import line_span

_NUMBERED = re.compile(r"^\s*(\d+)\s?(?:\||:|│|\t|→)\s?(.*)$")
_DEFINITION = re.compile(r"^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)")
_MAX_BLOCK = 60


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace lines ``start_line..end_line`` (1-based, inclusive) with ``new_content``."""

    start_line: int
    end_line: int
    new_content: str
    summary: str


def numbered_lines(read_output: str) -> dict[int, str]:
    """Line number → text, from ``read_file`` output; unnumbered text counts from line 1."""
    raw = read_output.splitlines()
    parsed: dict[int, str] = {}
    for line in raw:
        match = _NUMBERED.match(line)
        if match:
            parsed[int(match.group(1))] = match.group(2)
    if parsed and len(parsed) * 2 >= len([line for line in raw if line.strip()]):
        return parsed
    return {index: line for index, line in enumerate(raw, start=1)}


def replacement_edit(lines: dict[int, str], old: str, new: str) -> Edit | None:
    """Replace every ``old`` with ``new`` in the smallest known block that holds them all."""
    if re.fullmatch(r"\w+", old):
        pattern = re.compile(rf"\b{re.escape(old)}\b")
    else:
        pattern = re.compile(re.escape(old))
    hits = [number for number, text in sorted(lines.items()) if pattern.search(text)]
    if not hits:
        return None
    start, end = hits[0], hits[-1]
    contiguous = all(number in lines for number in range(start, end + 1))
    if not contiguous or end - start > _MAX_BLOCK:
        end = start
        hits = [start]
    block = [pattern.sub(lambda _m: new, lines[n]) for n in range(start, end + 1)]
    count = sum(len(pattern.findall(lines[n])) for n in hits)
    where = line_span(start, end)
    summary = (
        f"replace {count} occurrence{'s' if count != 1 else ''} of `{old}` with `{new}` ({where})"
    )
    return Edit(start, end, "\n".join(block), summary)


def docstring_edit(lines: dict[int, str], target: str | None) -> Edit | None:
    """Add a one-line docstring under ``def``/``class`` ``target`` (or the first that lacks one)."""
    wanted = target.split(".")[-1].removesuffix("()") if target else None
    for number, text in sorted(lines.items()):
        match = _DEFINITION.match(text)
        if not match or (wanted is not None and match.group(3) != wanted):
            continue
        end = _signature_end(lines, number)
        if end is None:
            continue
        if _has_docstring(lines, end) and wanted is None:
            continue
        if _has_docstring(lines, end):
            return None
        indent, kind, name = match.groups()
        signature = " ".join(lines[n].strip() for n in range(number, end + 1))
        doc = f'{indent}    """{describe(name, kind, signature)}"""'
        summary = f"add a docstring to {'class' if kind == 'class' else 'function'} `{name}`"
        return Edit(end, end, f"{lines[end]}\n{doc}", summary)
    return None


def describe(name: str, kind: str, signature: str = "") -> str:
    """A docstring sentence from a name and signature: ``load_config(path)`` → "Load config from `path`."."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").strip()
    words = spaced.lower().split() or [name]
    if kind == "class":
        return f"{' '.join(words).capitalize()}."
    params = re.search(r"\((.*)\)", signature)
    names = [
        p.split(":")[0].split("=")[0].strip().lstrip("*")
        for p in (params.group(1).split(",") if params else [])
    ]
    names = [n for n in names if n and n not in ("self", "cls", "/")]
    returns = re.search(r"->\s*([^:]+):", signature)
    if words[0] in {"is", "has", "can", "should"}:
        sentence = f"Return whether {' '.join(words[1:]) or 'it holds'}"
    else:
        sentence = " ".join(words).capitalize()
    if names:
        sentence += f" for {', '.join(f'`{n}`' for n in names[:3])}"
    if returns and returns.group(1).strip() not in ("None", ""):
        sentence += f", returning `{returns.group(1).strip()}`"
    return f"{sentence}."


def _signature_end(lines: dict[int, str], start: int) -> int | None:
    for number in range(start, start + 20):
        text = lines.get(number)
        if text is None:
            return None
        if text.split("#", 1)[0].rstrip().endswith(":"):
            return number
    return None


def _has_docstring(lines: dict[int, str], signature_end: int) -> bool:
    for number in range(signature_end + 1, signature_end + 4):
        text = lines.get(number, "").strip()
        if text:
            return text.startswith(('"""', "'''", 'r"""', "r'''"))
    return False
