"""A patch's change as the smallest span of text it replaced, so it can be undone and redone.

:func:`text_edit` keeps where the old and new texts first differ, what was there before and
what is there after (plus the sha256 of both whole files). :func:`undo_text` and
:func:`redo_text` rebuild one text from the other, and only when the file holds exactly the
text the edit expects: the hashes decide, so a file edited by hand since is never overwritten.
"""

from __future__ import annotations

import hashlib
from typing import Any

NO_FILE = None
"""The ``base_sha256`` of an edit that created its file."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def text_edit(old: str | None, new: str) -> dict[str, Any]:
    """The change from ``old`` (``None``: no file yet) to ``new`` as a plain dict (it is stored
    in the graph state and in the tree): ``at``, ``removed``, ``inserted`` and both hashes."""
    before = old or ""
    start = 0
    limit = min(len(before), len(new))
    while start < limit and before[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == new[-1 - end]:
        end += 1
    return {
        "at": start,
        "removed": before[start : len(before) - end],
        "inserted": new[start : len(new) - end],
        "base_sha256": NO_FILE if old is None else _sha(old),
        "new_sha256": _sha(new),
    }


def holds(text: str | None, sha256: str | None) -> bool:
    """Whether a file's text (``None``: no file) is the one ``sha256`` names (``None``: none)."""
    if text is None or sha256 is None:
        return text is None and sha256 is None
    return _sha(text) == sha256


def undo_text(edit: dict[str, Any], patched: str) -> str | None:
    """The text before the edit, from the patched text (``None``: the edit created the file)."""
    if edit["base_sha256"] is NO_FILE:
        return None
    return _swap(patched, int(edit["at"]), str(edit["inserted"]), str(edit["removed"]))


def redo_text(edit: dict[str, Any], original: str) -> str:
    """The patched text, from the text before the edit."""
    return _swap(original, int(edit["at"]), str(edit["removed"]), str(edit["inserted"]))


def _swap(text: str, at: int, present: str, wanted: str) -> str:
    if text[at : at + len(present)] != present:
        raise ValueError("the text does not hold the span this edit expects")
    return text[:at] + wanted + text[at + len(present) :]
