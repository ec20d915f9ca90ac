"""Proposed edits as reviewable patches, and their safe application.

``propose_edit`` never writes: :func:`make_patch` builds a :class:`Patch` (the new full
content, a unified diff, and the sha256 of the bytes it was made from). Only a human's
accept applies it, through :func:`apply_patch`: the file must still hash to the patch's base
(else :class:`PatchConflict`), and the write is atomic (a temp file in the same folder, then
``os.replace``), so a crash never leaves half a file. These are plain functions so the app's
review screen, the graph's review node and tests all call the same code.
"""

from __future__ import annotations

import hashlib
import logging
import os
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.confined_files import read_confined, replace_confined
from agents.errors import ToolError, WeaverError
from agents.patch_review.file_edit import text_edit
from agents.patch_review.line_edit import line_count, replace_lines, unified_diff
from agents.project_paths import (
    PathRefused,
    relative_display,
    resolve_inside,
    resolve_project_path,
)
from agents.text_files import is_binary

logger = logging.getLogger(__name__)

MAX_PATCH_FILE_BYTES = 2_000_000


class PatchConflict(ToolError):
    """The file changed after the patch was proposed; the patch was not applied."""

    code = "patch_conflict"


@dataclass(frozen=True, slots=True)
class Patch:
    """A pending edit of one file. ``base_sha256`` is ``None`` when the patch creates the file.

    Stored in the graph state (and so in the checkpointer) as a plain dict: see
    :meth:`to_dict` / :meth:`from_dict`.
    """

    id: str
    path: str
    base_sha256: str | None
    new_content: str
    diff: str
    start_line: int
    end_line: int
    tool_call_id: str | None = None
    edit: dict[str, Any] | None = None
    """The change as a :func:`~agents.patch_review.file_edit.text_edit` (what rewind reverts
    and re-applies); ``None`` on patches stored before rewind existed."""
    root: str | None = None
    """The real path of the project folder the patch was made in: the only one it is checked
    and applied in (``None`` on patches stored before it was kept: the caller's folder)."""

    def folder(self, fallback: Path) -> Path:
        """Where this patch is checked and written: the folder it was made in.

        The model read that folder's file and the diff is about it; a front end or a resumed
        turn may hold another folder (the app started with ``--project-root`` elsewhere than
        the conversation's, a second checkout with the very same file), and writing there
        would change a file the model never read. ``fallback``: the caller's folder, for a
        patch stored before the folder was kept."""
        return Path(self.root) if self.root else fallback

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Patch:
        return cls(**{key: data.get(key) for key in cls.__slots__})  # type: ignore[arg-type]

    @property
    def counts(self) -> str:
        """Lines added and removed, as ``+3 -1``."""
        lines = self.diff.splitlines()
        added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
        removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
        return f"+{added} -{removed}"

    @property
    def summary(self) -> str:
        """One line for lists and status rows: ``p-1a2b3c4d src/app.py (+3 -1)``."""
        return f"{self.id} {self.path} ({self.counts})"


def failure_reason(err: WeaverError | OSError) -> str:
    """An expected failure to read or write a project file as a clause a person reads: our own
    error's sentence, or the system's words for an OS error and what to do (never an errno, a
    temporary file's path or a traceback)."""
    if isinstance(err, WeaverError):
        return err.user_message
    what = (err.strerror or type(err).__name__).lower()
    return f"the system refused it ({what}), so nothing was changed; try again once that is fixed"


def line_span(start: int, end: int) -> str:
    """``line 7`` or ``lines 7-9``: a patch's range as a person reads it."""
    return f"line {start}" if start == end else f"lines {start}-{end}"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_patch(
    root: Path,
    path: str,
    start_line: int,
    end_line: int,
    new_content: str,
    tool_call_id: str | None = None,
) -> Patch:
    """Replace lines ``start_line``..``end_line`` (1-based, inclusive) with ``new_content``.

    ``end_line = start_line - 1`` inserts before ``start_line`` without replacing anything;
    ``new_content = ""`` deletes the lines. A file that does not exist yet can be created
    with ``start_line=1, end_line=0``.
    """
    real_root = resolve_inside(root, ".")
    target = resolve_project_path(root, path)
    shown = relative_display(real_root, target)
    if target.is_dir():
        raise ToolError(f"'{shown}' is a folder; propose_edit changes one file at a time.")
    data = _current_bytes(real_root, target)
    exists = data is not None
    if data is not None:
        if len(data) > MAX_PATCH_FILE_BYTES:
            raise ToolError(
                f"'{shown}' is too large to edit here (over {MAX_PATCH_FILE_BYTES:,} bytes)."
            )
        if is_binary(data):
            raise ToolError(f"'{shown}' is a binary file; propose_edit only edits text files.")
        try:
            old_text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ToolError(
                f"'{shown}' is not UTF-8 text; propose_edit only edits UTF-8 files."
            ) from err
        base: str | None = sha256_bytes(data)
    else:
        if (start_line, end_line) != (1, 0):
            raise ToolError(
                f"There is no file '{shown}'; to create it, use start_line=1 and end_line=0."
            )
        old_text, base = "", None

    count = line_count(old_text)
    if start_line < 1 or start_line > count + 1:
        raise ToolError(
            f"start_line {start_line} is outside '{shown}', which has {count} lines "
            f"(use 1-{count + 1}; {count + 1} appends at the end)."
        )
    if end_line < start_line - 1 or end_line > count:
        raise ToolError(
            f"end_line {end_line} does not fit start_line {start_line} in '{shown}' "
            f"({count} lines): use a value from {start_line - 1} (insert) to {count}."
        )
    new_text = replace_lines(old_text, start_line, end_line, new_content)
    if new_text == old_text and exists:
        raise ToolError(
            f"The new content equals {line_span(start_line, end_line)} of '{shown}'; nothing "
            "would change."
        )
    diff = unified_diff(
        old_text,
        new_text,
        fromfile=f"a/{shown}" if exists else "/dev/null",
        tofile=f"b/{shown}",
    )
    return Patch(
        id=f"p-{uuid.uuid4().hex[:8]}",
        path=shown,
        base_sha256=base,
        new_content=new_text,
        diff=diff,
        start_line=start_line,
        end_line=end_line,
        tool_call_id=tool_call_id,
        edit=_with_new_folders(text_edit(old_text if exists else None, new_text), real_root, shown),
        root=str(real_root),
    )


def _with_new_folders(edit: dict[str, Any], real_root: Path, shown: str) -> dict[str, Any]:
    """A creating edit also names the folders that do not exist yet (``new_folders``, top
    first): accepting it makes them, and undoing it removes them again (when empty), so the
    project is left as it was before the patch."""
    if edit["base_sha256"] is not None:
        return edit
    parts = Path(shown).parts[:-1]
    missing = [
        "/".join(parts[: depth + 1])
        for depth in range(len(parts))
        if not os.path.lexists(real_root.joinpath(*parts[: depth + 1]))
    ]
    return {**edit, "new_folders": missing} if missing else edit


def reviewed_file(root: Path, path: str) -> tuple[Path, Path]:
    """(the real root, ``path`` relative to it) for the file a review named, refused with
    :class:`~agents.project_paths.PathRefused` unless ``path`` still leads to itself.

    A patch names the real file it was made from (links resolved when it was proposed), and
    the review shows that name. A link put since in its place, or in place of one of its
    folders, would send the write (or an undo) to another file the review never showed, one
    that may hold the very same bytes: so every write of a patch, undo and redo included, goes
    to the file by the name reviewed, or nowhere."""
    real_root = resolve_inside(root, ".")
    relative = resolve_project_path(root, path).relative_to(real_root)
    if relative.as_posix() != path:
        raise PathRefused(
            f"'{path}' now leads to '{relative.as_posix()}' (a link was put in its way since "
            "the patch was proposed), so nothing was written; propose the edit again."
        )
    return real_root, relative


def check_patch(root: Path, patch: Patch) -> bool:
    """Whether ``patch`` is already applied (``True``) or applies cleanly now (``False``);
    writes nothing. Raises what :func:`apply_patch` raises for a patch that cannot be applied.

    A review screen calls this, not :func:`apply_patch`: the file is written only where the
    decision is recorded (the review node, as the paused turn resumes), so a resume that never
    runs (no model, a busy conversation, a crash) leaves the file and the record agreeing that
    nothing was applied."""
    real_root, relative = reviewed_file(patch.folder(root), patch.path)
    current = _current_bytes(real_root, real_root / relative)
    if current is not None and current == patch.new_content.encode("utf-8"):
        return True
    current_hash = None if current is None else sha256_bytes(current)
    if current_hash != patch.base_sha256:
        what = (
            "now exists"
            if patch.base_sha256 is None
            else ("was deleted" if current is None else "has changed")
        )
        raise PatchConflict(
            f"{patch.path} {what} since patch {patch.id} was proposed, so it was not applied; "
            "read the file again and propose a new edit."
        )
    return False


def apply_patch(root: Path, patch: Patch) -> str:
    """Write the patch if the file still has the content it was made from; return a sentence.

    Raises :class:`PatchConflict` when the file changed (or appeared, for a new file), and
    :class:`~agents.project_paths.PathRefused` if the path now leaves the root.
    Applying the same patch twice is harmless: a file that already holds the new content is
    reported as applied and not written again (a resumed node may run twice).
    """
    real_root, relative = reviewed_file(patch.folder(root), patch.path)
    existed = _current_bytes(real_root, real_root / relative) is not None
    if check_patch(root, patch):
        logger.info("patch %s already applied to %s", patch.id, patch.path)
        return f"Applied patch {patch.id} to {patch.path} ({patch.counts})."
    replace_confined(real_root, relative, patch.new_content.encode("utf-8"))
    logger.info("applied patch %s to %s", patch.id, patch.path)
    if not existed:
        return f"Created {patch.path} with patch {patch.id} ({patch.counts})."
    return f"Applied patch {patch.id} to {patch.path} ({patch.counts})."


def reject_patch(patch: Patch) -> str:
    """Discard a patch (nothing to undo: proposing never wrote); return the sentence to record."""
    logger.info("rejected patch %s for %s", patch.id, patch.path)
    return f"The user rejected patch {patch.id} for {patch.path}; the file was not changed."


def _current_bytes(real_root: Path, target: Path) -> bytes | None:
    """The file's bytes (one more than :data:`MAX_PATCH_FILE_BYTES` at most), read through
    :mod:`agents.confined_files`; ``None`` when there is no file."""
    try:
        return read_confined(real_root, target.relative_to(real_root), MAX_PATCH_FILE_BYTES)
    except FileNotFoundError:
        return None
