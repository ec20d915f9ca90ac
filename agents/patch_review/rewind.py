"""Rewind: revert the patches accepted on a branch, and re-apply them.

An applied patch's tool record keeps its change (``meta["patch_edit"]``, see
:mod:`agents.patch_review.file_edit`). Reverting writes the text from before the patch, and
only when the file still holds exactly the patched text; re-applying writes the patched text
only when the file holds the text from before. Anything else is a conflict: the file is left
alone and the outcome says what differs. Writes go through :mod:`agents.confined_files`, as
accepting a patch does. The record's ``patch_status`` becomes ``reverted`` / ``applied``, so
the tree shows where the files stand.

Only a patch accepted on this machine is ever reverted or re-applied: the store keeps a row for
each patch the user accepted (:mod:`storage.accepted_patches`), and a record counts as a patch
here only when that row exists and names the same file and hashes as the record's edit. A
record's own ``patch_status`` is data (an imported file can say anything): with no row it is
history, and nothing here writes a file for it.

Which patches a move in the tree concerns (:func:`patches_to_rewind`): the files are brought
to the point checked out. Going to another branch, the applied patches of the old path that
the new one lacks are reverted (newest first) and the reverted patches of the new path are
re-applied (oldest first); checking out an earlier message of the same path reverts what was
applied after it, and checking out the branch shown offers again a patch undone on it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from agents.confined_files import read_confined, remove_confined, replace_confined
from agents.errors import WeaverError
from agents.patch_review.file_edit import holds, redo_text, undo_text
from agents.project_paths import resolve_inside, resolve_project_path
from storage.models import AcceptedPatch, MessageRecord
from storage.store import ConversationStore

logger = logging.getLogger(__name__)

APPLIED = "applied"
REVERTED = "reverted"
MAX_FILE_BYTES = 2_000_000
Direction = Literal["revert", "redo"]


@dataclass(frozen=True, slots=True)
class PatchOnBranch:
    """An applied or reverted patch, as its tool record keeps it."""

    record_id: str
    patch_id: str
    path: str
    status: str
    edit: dict[str, Any]

    @classmethod
    def of(
        cls, record: MessageRecord, accepted: Mapping[str, AcceptedPatch]
    ) -> PatchOnBranch | None:
        """The patch ``record`` keeps, if the user accepted it here (``accepted``: the
        store's rows for the records at hand), else ``None``."""
        meta = record.meta
        edit = meta.get("patch_edit")
        status = meta.get("patch_status")
        if record.role != "tool" or status not in (APPLIED, REVERTED) or not isinstance(edit, dict):
            return None
        path = str(meta.get("patch_path"))
        row = accepted.get(record.id)
        if row is None or not row.matches(path, edit):
            return None
        return cls(record.id, row.patch_id, path, status, edit)

    @property
    def summary(self) -> str:
        return f"{self.patch_id} {self.path}"


@dataclass(frozen=True, slots=True)
class RewindOutcome:
    """What one revert or redo did: ``done`` false for a conflict (``message`` says which);
    ``record`` is the patch's tool record as written with its new status (``None`` when
    nothing was written), so a front end shows it without reading it back."""

    patch: PatchOnBranch
    direction: Direction
    done: bool
    message: str
    record: MessageRecord | None = None


def accepted_on(
    store: ConversationStore, *paths: Sequence[MessageRecord]
) -> dict[str, AcceptedPatch]:
    """The store's accepted patches among the records of ``paths``."""
    ids = {record.id for path in paths for record in path if record.role == "tool"}
    return store.accepted_patches(sorted(ids)) if ids else {}


def patches_on(
    path: Sequence[MessageRecord], status: str, accepted: Mapping[str, AcceptedPatch]
) -> list[PatchOnBranch]:
    """The accepted patches of ``path`` (root first) whose status is ``status``, in order."""
    found = (PatchOnBranch.of(record, accepted) for record in path)
    return [patch for patch in found if patch is not None and patch.status == status]


def next_to_rewind(
    store: ConversationStore, path: Sequence[MessageRecord], direction: Direction
) -> PatchOnBranch | None:
    """The patch one undo (``revert``) or redo moves on ``path`` (root first): the latest
    applied one, or the earliest reverted one (the last undone); ``None`` when there is none.
    Every front end's undo and redo ask this (the app's palette and composer, ``ask``, ACP)."""
    status = APPLIED if direction == "revert" else REVERTED
    found = patches_on(path, status, accepted_on(store, path))
    if not found:
        return None
    return found[-1] if direction == "revert" else found[0]


NOTHING_TO_REWIND: dict[Direction, str] = {
    "revert": "No patch accepted here is applied on this branch to undo.",
    "redo": "No reverted patch on this branch to redo.",
}


def patches_to_rewind(
    old_path: Sequence[MessageRecord],
    new_path: Sequence[MessageRecord],
    target_id: str,
    accepted: Mapping[str, AcceptedPatch],
) -> tuple[list[PatchOnBranch], list[PatchOnBranch]]:
    """(to revert newest first, to re-apply oldest first) for a move from ``old_path`` to
    ``new_path`` (both root first) that checks out ``target_id``.

    Afterwards the files hold every patch of the new path up to the point checked out and
    none other: that point is ``target_id`` when it is a message of the old path (going back,
    or checking out the branch already shown: a patch undone there is offered again), else
    the new path's leaf (another branch, shown down to its remembered leaf)."""
    old_ids = {record.id for record in old_path}
    new_ids = [record.id for record in new_path]
    upto = len(new_ids)
    if target_id in old_ids and target_id in new_ids:
        upto = new_ids.index(target_id) + 1
    kept = set(new_ids[:upto])
    later = [record for record in new_path[upto:] if record.id not in old_ids]
    revert = [
        patch
        for patch in patches_on([*old_path, *later], APPLIED, accepted)
        if patch.record_id not in kept
    ]
    revert.reverse()
    return revert, patches_on(new_path[:upto], REVERTED, accepted)


def rewind(
    root: Path, store: ConversationStore, patch: PatchOnBranch, direction: Direction
) -> RewindOutcome:
    """Revert (or re-apply) ``patch`` in the files under ``root`` and record its new status;
    never raises for an expected failure."""
    try:
        return _rewind(root, store, patch, direction)
    except (WeaverError, OSError, UnicodeDecodeError) as err:
        reason = err.user_message if isinstance(err, WeaverError) else str(err)
        logger.warning("rewind %s of %s failed: %s", direction, patch.patch_id, reason)
        verb = "reverted" if direction == "revert" else "re-applied"
        return RewindOutcome(patch, direction, False, f"{patch.summary} was not {verb}: {reason}")


def _rewind(
    root: Path, store: ConversationStore, patch: PatchOnBranch, direction: Direction
) -> RewindOutcome:
    real_root = resolve_inside(root, ".")
    relative = resolve_project_path(root, patch.path).relative_to(real_root)
    current = _read(real_root, relative)
    edit = patch.edit
    expected, goal = edit["new_sha256"], edit["base_sha256"]
    if direction == "redo":
        expected, goal = goal, expected
    if holds(current, goal):  # already there (rewound by hand, say): only the record changes
        wanted = current
    elif not holds(current, expected):
        return RewindOutcome(patch, direction, False, _conflict(patch, direction, current))
    else:
        assert current is not None or direction == "redo"
        if direction == "revert":
            wanted = undo_text(edit, current or "")
        else:
            wanted = redo_text(edit, current or "")
        if not holds(wanted, goal):
            raise ValueError("the rebuilt text does not match the recorded hash")
        if wanted is None:
            remove_confined(real_root, relative)
        else:
            replace_confined(real_root, relative, wanted.encode("utf-8"))
    status = REVERTED if direction == "revert" else APPLIED
    record = store.update_message(patch.record_id, meta={"patch_status": status})
    logger.info("rewind %s of patch %s on %s", direction, patch.patch_id, patch.path)
    if direction == "revert":
        what = "deleted the file it created" if wanted is None else "restored the file"
        return RewindOutcome(patch, direction, True, f"Reverted {patch.summary}: {what}.", record)
    return RewindOutcome(patch, direction, True, f"Re-applied {patch.summary}.", record)


def _read(real_root: Path, relative: Path) -> str | None:
    try:
        data = read_confined(real_root, relative, MAX_FILE_BYTES)
    except FileNotFoundError:
        return None
    return data.decode("utf-8")


def _conflict(patch: PatchOnBranch, direction: Direction, current: str | None) -> str:
    """The conflict in one sentence: what the file holds instead, and what to do."""
    verb = "reverted" if direction == "revert" else "re-applied"
    if current is None:
        return f"{patch.summary} was not {verb}: the file was deleted since; restore it first."
    state = "the patched text" if direction == "revert" else "the text from before the patch"
    return (
        f"{patch.summary} was not {verb}: the file no longer holds {state} (it was changed "
        "since), so it was left alone; edit it by hand."
    )
