"""The numbered sources of an answer: each passage once, and each named by the file it came
from, so that it can be opened.

Two chunks are one source when one holds the other's passage: the same passage reached by two
searches (or from two copies of a note), or a document's summary (its opening) and the passage
it opens with. Whatever the searches found, the list an answer cites from holds no passage
twice; the passage (the longer one, for two) is kept, at the place the first of them had, with the
sections a summary listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

SAME_PASSAGE_CHARS = 120
"""How much of a passage (spaces folded) another one must hold to count as the same."""
SUMMARY_SECTIONS = " Sections: "
"""What a document summary adds after its opening (:func:`.scope.summary_chunk`)."""


def _folded(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _passage(chunk: Mapping[str, Any]) -> str:
    text = str(chunk.get("text") or "")
    if chunk.get("section") == "Summary":
        text = text.split(SUMMARY_SECTIONS, 1)[0]
    return _folded(text)


def same_passage(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether ``a`` and ``b`` hold one passage: equal, or one holding the other's first
    :data:`SAME_PASSAGE_CHARS` characters (a short passage must be equal)."""
    first, second = _passage(a), _passage(b)
    if not first or not second:
        return first == second and a.get("doc_id") == b.get("doc_id") and a.get("section") == b.get("section")  # fmt: skip
    if first == second:
        return True
    shorter, longer = sorted((first, second), key=len)
    return len(shorter) >= SAME_PASSAGE_CHARS // 2 and shorter[:SAME_PASSAGE_CHARS] in longer


def _fuller(chunk: Mapping[str, Any]) -> tuple[int, int]:
    """Which of two copies to keep: a passage over a summary, then the longer text."""
    return (chunk.get("section") != "Summary", len(_passage(chunk)))


def _one_of(kept: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """One source for two copies of a passage: the fuller, with the sections a summary of
    its document lists (the overview an exploratory question reads)."""
    keep, drop = (other, kept) if _fuller(other) > _fuller(kept) else (kept, other)
    for summary in (drop, keep):
        text = str(summary.get("text") or "")
        if summary.get("section") == "Summary" and SUMMARY_SECTIONS in text:
            sections = SUMMARY_SECTIONS + text.split(SUMMARY_SECTIONS, 1)[1]
            if summary is drop and sections not in str(keep.get("text") or ""):
                keep = {**keep, "text": str(keep.get("text") or "").rstrip() + sections}
    return keep


def merge_sources(*groups: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chunks of several searches, each passage once, in order of first appearance."""
    merged: list[dict[str, Any]] = []
    for group in groups:
        for chunk in group:
            at = next((i for i, kept in enumerate(merged) if same_passage(kept, chunk)), None)
            if at is None:
                merged.append(chunk)
            else:
                merged[at] = _one_of(merged[at], chunk)
    return merged


def source_location(chunk: Mapping[str, Any], cwd: Path | None = None) -> str:
    """Where a source can be opened: its URL, its file (relative to the folder weaver-tui
    runs in, or to the home folder, when under one), or its document id when the server gave
    no path."""
    path = str(chunk.get("path") or "")
    if not path:
        return str(chunk.get("doc_id") or "")
    if "://" in path:
        return path
    file = Path(path)
    if not file.is_absolute():
        return file.as_posix()
    for base, prefix in ((cwd or Path.cwd(), ""), (Path.home(), "~/")):
        try:
            return prefix + file.relative_to(base).as_posix()
        except ValueError:
            continue
    return file.as_posix()
