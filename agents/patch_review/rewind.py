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

A move that concerns several patches is taken whole or not at all (:func:`rewind_all`): a
conflict or a failed write in any step leaves every file as it was.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from agents.confined_files import (
    PreparedWrite,
    prepare_replace,
    read_confined,
    remove_confined,
    remove_empty_folders,
    replace_confined,
)
from agents.errors import WeaverError
from agents.patch_review import PATCH_ROOT, rewind_journal
from agents.patch_review.file_edit import holds, redo_text, undo_text
from agents.patch_review.patches import failure_reason, reviewed_file
from agents.patch_review.rewind_journal import Journal, JournalFile, OpenJournal, reached
from agents.project_paths import resolve_inside
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
    root: str | None = None
    """The folder the patch was accepted in (``None`` on records from before it was kept:
    the conversation's project root stands in)."""

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
        root = meta.get(PATCH_ROOT)
        return cls(
            record.id, row.patch_id, path, status, edit, root if isinstance(root, str) else None
        )

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


Step = tuple[PatchOnBranch, Direction]
"""One patch to revert or re-apply."""


class _Stop(Exception):
    """A step that cannot be taken: which one, and the sentence that says why."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


@dataclass(slots=True)
class _File:
    """One file a rewind touches: what it held before and what the steps leave in it."""

    relative: Path
    before: str | None
    after: str | None
    first_step: int
    """The index of the first step on this file (named when writing it fails)."""
    new_folders: tuple[str, ...] = ()
    """The folders a patch made for this file, removed (when empty) with the file."""


def rewind(
    root: Path, store: ConversationStore, patch: PatchOnBranch, direction: Direction
) -> RewindOutcome:
    """Revert (or re-apply) ``patch`` in the files under ``root`` and record its new status;
    never raises for an expected failure (see :func:`rewind_all`)."""
    return rewind_all(root, store, [(patch, direction)])[0]


def rewind_all(root: Path, store: ConversationStore, steps: Sequence[Step]) -> list[RewindOutcome]:
    """Take every step (in order) or none: one outcome per step; never raises for an
    expected failure.

    The guarantee, for any steps over any files: afterwards either every file holds what the
    steps make of it and every patch's record says its new status, or every file holds the
    bytes it held before and no record changed (each outcome then says so, the step that could
    not be taken with its reason). So a move in the tree that reverts three patches and meets
    a file edited by hand in the third leaves the first two applied too. First every step is
    checked against the files as the earlier steps leave them (nothing written); then each
    file is written once, with its final text, after checking it still holds what was read;
    a failed write puts back the files already written. Only then are the records updated.

    A kill of the process anywhere in between is covered too: before the first rename an
    intent journal is written (:mod:`agents.patch_review.rewind_journal`), and the next start
    (or the next rewind) finishes or undoes what it names, files and records together.
    """
    if not steps:
        return []
    folder = rewind_journal.journal_folder(store)
    for sentence in rewind_journal.finish_interrupted(store, folder):
        logger.warning("before a rewind: %s", sentence)
    statuses = tuple(
        (patch.record_id, patch.status, REVERTED if direction == "revert" else APPLIED)
        for patch, direction in steps
    )
    try:
        real_root = resolve_inside(root, ".")
        files, results = _plan(root, real_root, steps, _accepted_in(store, steps))
        journal = _write(real_root, files, steps, folder, statuses)
    except _Stop as stop:
        logger.warning("rewind stopped at step %d: %s", stop.index, stop.message)
        return _stopped(steps, stop)
    except (WeaverError, OSError) as err:  # the root itself is gone or refused
        return _stopped(steps, _Stop(0, _not_done(steps[0], failure_reason(err))))
    outcomes: list[RewindOutcome] = []
    try:
        for (patch, direction), message in zip(steps, results, strict=True):
            status = REVERTED if direction == "revert" else APPLIED
            record = store.update_message(patch.record_id, meta={"patch_status": status})
            logger.info("rewind %s of patch %s on %s", direction, patch.patch_id, patch.path)
            outcomes.append(RewindOutcome(patch, direction, True, message, record))
            reached(f"record:{len(outcomes)}")
    except BaseException:  # the records could not all be written: the next start finishes
        if journal is not None:
            rewind_journal.release(journal)
        raise
    if journal is not None:
        rewind_journal.end(journal)
    return outcomes


def _accepted_in(store: ConversationStore, steps: Sequence[Step]) -> list[str | None]:
    """The folder each step's patch was accepted in: the record's own, else (a record from
    before it was kept) its conversation's project root, else ``None`` (unknown)."""
    folders: list[str | None] = []
    for patch, _direction in steps:
        folder = patch.root
        if folder is None:
            conversation_id = store.get_message(patch.record_id).conversation_id
            stored = store.get_conversation(conversation_id).meta.get("project_root")
            folder = stored if isinstance(stored, str) and stored else None
        folders.append(folder)
    return folders


def _plan(
    root: Path, real_root: Path, steps: Sequence[Step], accepted_in: Sequence[str | None]
) -> tuple[list[_File], list[str]]:
    """The files the steps touch with their final texts, and each step's sentence; raises
    :class:`_Stop` at the first step that does not fit the file as the steps before leave it,
    or whose patch was accepted in another folder than ``root``.

    An acceptance is for one file in one folder: a second checkout of the same project can
    hold the very same text, and undoing there would write a file the user never accepted a
    patch for."""
    files: dict[Path, _File] = {}
    results: list[str] = []
    for index, (patch, direction) in enumerate(steps):
        folder = accepted_in[index]
        if folder is not None and os.path.realpath(folder) != str(real_root):
            reason = (
                f"it was accepted in {folder}, not in {real_root}; undo and redo it in a "
                "session working in that folder"
            )
            raise _Stop(index, _not_done((patch, direction), reason))
        try:
            relative = reviewed_file(root, patch.path)[1]
            file = files.get(relative)
            if file is None:
                current = _read(real_root, relative)
                file = files[relative] = _File(relative, current, current, index)
            wanted = _stepped(patch, direction, file.after)
        except _Stop as stop:
            raise _Stop(index, stop.message) from None
        except _NotText:  # bytes no patch wrote: changed since, like any other text
            raise _Stop(index, _conflict(patch, direction, "")) from None
        except ValueError as err:  # the recorded change does not fit the text it expects
            reason = "its recorded change does not fit the file, so it was left alone"
            raise _Stop(index, _not_done((patch, direction), reason)) from err
        except (WeaverError, OSError) as err:
            raise _Stop(index, _not_done((patch, direction), failure_reason(err))) from err
        unchanged, file.after = wanted == file.after, wanted
        folders = patch.edit.get("new_folders")
        if wanted is None and isinstance(folders, list):
            file.new_folders = tuple(str(f) for f in folders)
        if unchanged:  # the file was there already (rewound by hand, or from another branch)
            held = "the text from before it" if direction == "revert" else "its text"
            status = REVERTED if direction == "revert" else APPLIED
            results.append(
                f"Marked {patch.summary} {status}: the file already held {held}; nothing was "
                "written."
            )
        elif direction == "revert":
            what = "deleted the file it created" if wanted is None else "restored the file"
            results.append(f"Reverted {patch.summary}: {what}.")
        else:
            results.append(f"Re-applied {patch.summary}.")
    return list(files.values()), results


def _stepped(patch: PatchOnBranch, direction: Direction, current: str | None) -> str | None:
    """The file's text after one step from ``current`` (``None``: no file); raises
    :class:`_Stop` (index 0, the caller sets it) on a conflict."""
    edit = patch.edit
    expected, goal = edit["new_sha256"], edit["base_sha256"]
    if direction == "redo":
        expected, goal = goal, expected
    if holds(current, goal):  # already there (rewound by hand, say): only the record changes
        return current
    if not holds(current, expected):
        raise _Stop(0, _conflict(patch, direction, current))
    assert current is not None or direction == "redo"
    if direction == "revert":
        wanted = undo_text(edit, current or "")
    else:
        wanted = redo_text(edit, current or "")
    if not holds(wanted, goal):
        raise ValueError("the rebuilt text does not match the recorded hash")
    return wanted


def _write(
    real_root: Path,
    files: Sequence[_File],
    steps: Sequence[Step],
    folder: Path | None,
    statuses: tuple[tuple[str, str, str], ...],
) -> OpenJournal | None:
    """Write each changed file once, all or nothing; raise :class:`_Stop` on a failure; the
    journal written in ``folder`` (``None``: no folder), to end once the records are updated.

    First every new text is written and flushed beside its file (each file re-checked first:
    it must still hold what the plan read), then they are put in place one after the other
    (renames, microseconds each), then the files the steps delete are removed: a failure
    before the renames leaves every file as it was, a failure after one puts back the files
    already changed, and a process killed between two renames leaves its journal behind."""
    changed = [f for f in files if f.after != f.before]
    prepared: list[tuple[_File, PreparedWrite]] = []
    journal: OpenJournal | None = None
    try:
        for file in changed:
            _still_holds(real_root, file)
            if file.after is not None:
                data = file.after.encode("utf-8")
                prepared.append((file, prepare_replace(real_root, file.relative, data)))
        journal = _begin_journal(folder, real_root, changed, statuses)
    except (_Stop, WeaverError, OSError) as err:
        for _file, write in prepared:
            write.discard()
        raise _stop_for(err, file if changed else None, steps) from None
    written: list[_File] = []

    def undo(err: Exception, file: _File) -> _Stop:
        whole = _put_back(real_root, written)
        if journal is not None:  # kept when a file could not be put back: the next start will
            (rewind_journal.end if whole else rewind_journal.release)(journal)
        return _stop_for(err, file, steps)

    for index, (file, write) in enumerate(prepared):
        try:
            write.commit()
        except (WeaverError, OSError) as err:
            for _later, rest in prepared[index + 1 :]:
                rest.discard()
            raise undo(err, file) from None
        written.append(file)
        reached(f"rename:{len(written)}")
    for file in (f for f in changed if f.after is None):  # deleted last: nothing is lost
        try:
            _still_holds(real_root, file)
            remove_confined(real_root, file.relative)
            remove_empty_folders(real_root, file.new_folders)
        except (_Stop, WeaverError, OSError) as err:
            raise undo(err, file) from None
        written.append(file)
        reached(f"remove:{len(written)}")
    return journal


def _begin_journal(
    folder: Path | None,
    real_root: Path,
    changed: Sequence[_File],
    statuses: tuple[tuple[str, str, str], ...],
) -> OpenJournal | None:
    """The intent journal of a rewind about to rename ``changed``, written and flushed."""
    if folder is None:
        return None
    entries = tuple(
        JournalFile(f.relative.as_posix(), f.before, f.after, f.new_folders) for f in changed
    )
    journal = rewind_journal.begin(folder, Journal(str(real_root), entries, statuses))
    reached("journal")
    return journal


def _still_holds(real_root: Path, file: _File) -> None:
    """Raise :class:`_Stop` unless the file still holds what the plan read."""
    try:
        same = _read(real_root, file.relative) == file.before
    except _NotText:
        same = False
    if not same:
        raise _Stop(
            file.first_step,
            f"{file.relative.as_posix()} changed while the files were being rewound, so "
            "nothing was changed; try again.",
        )


def _stop_for(err: Exception, file: _File | None, steps: Sequence[Step]) -> _Stop:
    if isinstance(err, _Stop):
        return err
    assert isinstance(err, WeaverError | OSError)
    first = 0 if file is None else file.first_step
    return _Stop(first, _not_done(steps[first], failure_reason(err)))


def _put(real_root: Path, relative: Path, text: str | None) -> None:
    if text is None:
        remove_confined(real_root, relative)
    else:
        replace_confined(real_root, relative, text.encode("utf-8"))


def _put_back(real_root: Path, written: Sequence[_File]) -> bool:
    """Restore the files already written (newest first), as far as the disk lets us; whether
    every one was."""
    whole = True
    for file in reversed(written):
        try:
            _put(real_root, file.relative, file.before)
        except (WeaverError, OSError) as err:
            whole = False
            logger.error("rewind could not put back %s: %s", file.relative, err)
    return whole


def _not_done(step: Step, reason: str) -> str:
    patch, direction = step
    verb = "reverted" if direction == "revert" else "re-applied"
    return f"{patch.summary} was not {verb}: {reason}"


def _stopped(steps: Sequence[Step], stop: _Stop) -> list[RewindOutcome]:
    """Every step not done: the one that stopped the rewind says why, the others that
    nothing was changed because of it."""
    failed = steps[stop.index][0]
    outcomes = []
    for index, (patch, direction) in enumerate(steps):
        if index == stop.index:
            message = stop.message
        else:
            message = _not_done(
                (patch, direction),
                f"the rewind stopped at {failed.summary}, so no file was changed",
            )
        outcomes.append(RewindOutcome(patch, direction, False, message))
    return outcomes


class _NotText(Exception):
    """The file holds bytes that are not UTF-8 text: no patch wrote them."""


def _read(real_root: Path, relative: Path) -> str | None:
    try:
        data = read_confined(real_root, relative, MAX_FILE_BYTES)
    except FileNotFoundError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _NotText from None


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
