"""Keep every path the model names inside the project root.

The model writes paths; this module decides whether they may be touched. Everything is
resolved against the root (symlinks followed), and anything that could leave it is refused
with a sentence the model can read and act on: absolute paths, ``~``, ``..`` escapes, NUL
bytes, over-long names, and symlinks (including loops) that resolve outside the root.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path, PurePosixPath

from agents.errors import ToolError

MAX_PATH_CHARS = 1024
"""Longer paths are refused outright (no real project path comes near this)."""

MAX_NAME_CHARS = 255
"""The longest file or folder name common file systems allow."""

_EXAMPLE = "use a path relative to the project, e.g. 'src/app.py'"


class PathRefused(ToolError):
    """A path the tools will not touch, with a sentence saying what to use instead."""

    code = "path_refused"


def _shown(user_path: str) -> str:
    """The path as it may be quoted back: printable and short."""
    text = user_path.replace("\x00", "\\0")
    return text if len(text) <= 80 else text[:60] + "..." + text[-12:]


def relative_display(root: Path, target: Path) -> str:
    """``target`` as a project-relative POSIX path (``.`` for the root itself)."""
    rel = target.relative_to(root).as_posix()
    return rel or "."


def resolve_inside(root: Path, user_path: str) -> Path:
    """Resolve ``user_path`` against ``root`` and return the real path, or raise
    :class:`PathRefused` when it is not a plain relative path that stays inside the root.

    The returned path has every symlink resolved, so callers read and write the real file.
    It may not exist (``propose_edit`` can create files); callers check existence themselves.
    """
    shown = _shown(user_path)
    if not isinstance(user_path, str) or not user_path.strip():
        raise PathRefused(f"The path is empty; {_EXAMPLE}.")
    if "\x00" in user_path:
        raise PathRefused(f"Path '{shown}' contains a NUL byte; {_EXAMPLE}.")
    if len(user_path) > MAX_PATH_CHARS:
        raise PathRefused(
            f"Path '{shown}' is {len(user_path)} characters long, more than the "
            f"{MAX_PATH_CHARS} allowed; {_EXAMPLE}."
        )
    # Backslashes are separators on Windows and a classic way to smuggle '..\\' past
    # a POSIX-only check, so they are treated as separators everywhere.
    normalised = user_path.strip().replace("\\", "/")
    if normalised.startswith("~"):
        raise PathRefused(
            f"Path '{shown}' points into a home folder, which is outside the project root; "
            f"{_EXAMPLE}."
        )
    pure = PurePosixPath(normalised)
    if pure.is_absolute() or (normalised[:1].isalpha() and normalised[1:2] == ":"):
        raise PathRefused(f"Path '{shown}' is absolute; {_EXAMPLE}.")
    for part in pure.parts:
        if len(part) > MAX_NAME_CHARS:
            raise PathRefused(
                f"Path '{shown}' has a name longer than {MAX_NAME_CHARS} characters; {_EXAMPLE}."
            )

    real_root = Path(os.path.realpath(root))
    candidate = real_root.joinpath(*pure.parts)
    try:
        # Non-strict so that missing tails (a file to create) are allowed; loops are
        # detected separately because non-strict realpath stops at them silently.
        resolved = Path(os.path.realpath(candidate))
        _check_no_loop(candidate)
    except (OSError, RuntimeError) as err:
        raise PathRefused(
            f"Path '{shown}' cannot be resolved (a symbolic link loop or an unreadable "
            f"folder); {_EXAMPLE}."
        ) from err
    if resolved != real_root and real_root not in resolved.parents:
        raise PathRefused(
            f"Path '{shown}' is outside the project root; {_EXAMPLE}."
            if ".." in pure.parts
            else f"Path '{shown}' leads outside the project root through a symbolic link; "
            f"{_EXAMPLE}."
        )
    return resolved


VCS_FOLDERS = frozenset({".git", ".hg", ".svn"})


def resolve_project_path(root: Path, user_path: str) -> Path:
    """:func:`resolve_inside`, also refusing version-control internals (``.git/config`` can
    hold credentials, and nothing there is the project's code)."""
    resolved = resolve_inside(root, user_path)
    real_root = Path(os.path.realpath(root))
    if _in_version_control_data(real_root, resolved):
        raise PathRefused(
            f"Path '{_shown(user_path)}' is inside version-control data, which the tools do "
            "not read or change; use the project's own files, e.g. 'src/app.py'."
        )
    return resolved


def _in_version_control_data(real_root: Path, resolved: Path) -> bool:
    """Whether ``resolved`` is in a ``.git``, ``.hg`` or ``.svn`` folder of the root, whatever
    the case of the name (``.GIT/hooks`` is ``.git/hooks`` on a case-insensitive disk) and
    whatever other name reaches it (compared as the same file, not by name)."""
    parts = resolved.relative_to(real_root).parts
    if any(part.casefold() in VCS_FOLDERS for part in parts):
        return True
    folders = []
    for name in VCS_FOLDERS:
        with contextlib.suppress(OSError):
            folders.append(os.stat(real_root / name))
    if not folders:
        return False
    current = real_root
    for part in parts:
        current = current / part
        try:
            info = os.stat(current)
        except OSError:
            return False  # a path still to be created: no folder below exists either
        if any(os.path.samestat(info, folder) for folder in folders):
            return True
    return False


def _check_no_loop(candidate: Path) -> None:
    """Raise ``OSError`` when resolving ``candidate`` runs into a symlink loop.

    ``os.path.realpath`` without ``strict`` silently stops at a loop and returns a path that
    may look inside the root; walking the existing prefix with ``strict=True`` exposes it.
    """
    existing = candidate
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    try:
        os.path.realpath(existing, strict=True)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise
        # A dangling link or an unreadable folder: the non-strict answer already decided.
