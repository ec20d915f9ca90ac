"""Attaching files from the composer: ``@path`` mentions and their Tab completion.

A word ``@logs/build.log`` in a message names a file to attach when it is one: relative paths
are read from the conversation's folder, ``~`` and absolute paths as typed (the user named
them). Tab after ``@part`` completes the path as a shell does: the whole name when one file
matches, else the longest common start.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_MENTION = re.compile(r"(?<!\S)@(\S+)")
_PARTIAL = re.compile(r"(?<!\S)@(\S*)$")
COMPLETIONS_SHOWN = 200
"""Folder entries read at most for one completion (a huge folder must not stall a key)."""


def _resolve(root: Path, typed: str) -> Path:
    path = Path(typed).expanduser()
    return path if path.is_absolute() else root / path


def mentioned_files(text: str, root: Path) -> list[Path]:
    """The files the ``@`` words of ``text`` name, in order, each once."""
    found: list[Path] = []
    for match in _MENTION.finditer(text):
        path = _resolve(root, match.group(1).rstrip(".,;:!?)"))
        if _is_file(path) and path not in found:
            found.append(path)
    return found


def _is_file(path: Path) -> bool:
    """Whether ``path`` names a file; a word no file system could hold (a name past 255 bytes,
    a path past PATH_MAX) is not one, it is text."""
    try:
        return path.is_file()
    except OSError:
        return False


def complete_mention(before_cursor: str, root: Path) -> str | None:
    """What to insert at the cursor to complete an ``@`` path ending ``before_cursor``
    (``None``: not in a mention, or nothing to add)."""
    match = _PARTIAL.search(before_cursor)
    if match is None:
        return None
    typed = match.group(1)
    folder_part, _, name_part = typed.rpartition("/")
    folder = (
        _resolve(root, folder_part or ".") if folder_part or not typed.startswith("~") else None
    )
    try:
        if folder is None or not folder.is_dir():
            return None
    except OSError:  # a path too long for the file system completes to nothing
        return None
    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(name_part) and not (
                    entry.name.startswith(".") and not name_part.startswith(".")
                ):
                    names.append(entry.name + ("/" if entry.is_dir() else ""))
                if len(names) >= COMPLETIONS_SHOWN:
                    break
    except OSError:
        return None
    if not names:
        return None
    common = os.path.commonprefix(names)  # noqa: RUF071 - names of one folder, by characters
    addition = common[len(name_part) :]
    return addition or None
