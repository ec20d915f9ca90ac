"""The intent journal of a rewind: what a rewind of several files is about to do, kept until
it is done, so a process killed between its renames is finished (or undone) on the next start.

The guarantee, for any set of files a rewind writes and any instant it is killed: once
:func:`finish_interrupted` has run, every file of the rewind holds either all its texts from
before or all its texts from after, and the patch records say the status that matches (the
project folder and the conversation's record of applied patches agree). Nothing else is
written: a file that holds neither text (edited since the kill) is left alone, and the others
are put back to their texts from before, so the records (not changed yet) still match them.

A journal is one JSON file in the product's data folder (beside the conversation database,
never in the project), written and flushed before the first rename and removed after the last
record is updated. It keeps the project folder, each file's texts before and after, and each
record's new status: only what this user's rewind was about to write, so finishing it writes
nothing the user did not accept here. A store with no data folder of its own (a database
server) keeps no journal, and a rewind there is all-or-nothing only while its process lives.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.confined_files import (
    read_confined,
    remove_confined,
    remove_empty_folders,
    replace_confined,
)
from agents.errors import WeaverError
from storage.store import ConversationStore

logger = logging.getLogger(__name__)

JOURNAL_FOLDER = "rewind-journal"
MAX_JOURNAL_FILE_BYTES = 4_000_000

step_hook: Callable[[str], None] | None = None
"""Called with the name of each step a journalled rewind takes (tests kill the process there);
``None`` in the product."""


def reached(step: str) -> None:
    """Tell :data:`step_hook` (if any) that the rewind reached ``step``."""
    if step_hook is not None:
        step_hook(step)


@dataclass(frozen=True, slots=True)
class JournalFile:
    """One file of a rewind: its path relative to the project, its texts before and after
    (``None``: no file), and the folders to remove with it when it is deleted."""

    relative: str
    before: str | None
    after: str | None
    new_folders: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Journal:
    """A rewind about to be taken: the project folder, its files and each record's status."""

    root: str
    files: tuple[JournalFile, ...]
    statuses: tuple[tuple[str, str, str], ...]
    """(record id, ``patch_status`` before, ``patch_status`` after) for each step."""


def journal_folder(store: ConversationStore) -> Path | None:
    """The folder the journals of ``store`` live in: beside its database file; ``None`` for a
    store without one."""
    path = getattr(store, "path", None)
    if not isinstance(path, Path) or str(path) == ":memory:":
        return None
    return path.parent / JOURNAL_FOLDER


@dataclass(frozen=True, slots=True)
class OpenJournal:
    """A journal on disk and the handle that holds its lock while its rewind is alive."""

    path: Path
    fd: int


def begin(folder: Path, journal: Journal) -> OpenJournal:
    """Write ``journal`` durably into ``folder`` (the file and its name flushed), locked for
    as long as this process's rewind runs: another process (a second window, a seat) that
    starts meanwhile never takes a live rewind for an interrupted one."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.json"
    temp = folder / f".{name}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, json.dumps(asdict(journal)).encode("utf-8"))
        os.fsync(fd)
        target = folder / name
        os.replace(temp, target)
        _sync_folder(folder)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        os.close(fd)
        raise
    return OpenJournal(target, fd)


def end(journal: OpenJournal) -> None:
    """Remove a journal whose rewind is complete (or wholly undone), and let go of it."""
    try:
        with contextlib.suppress(FileNotFoundError):
            journal.path.unlink()
        _sync_folder(journal.path.parent)
    finally:
        os.close(journal.fd)


def release(journal: OpenJournal) -> None:
    """Let go of a journal whose rewind stopped half done, keeping it for the next start."""
    os.close(journal.fd)


def _claim(path: Path) -> OpenJournal | None:
    """``path`` locked for this process, or ``None`` when a live rewind holds it (or it is
    gone)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    if not path.exists():  # settled by another process between the listing and the lock
        os.close(fd)
        return None
    return OpenJournal(path, fd)


def finish_interrupted(store: ConversationStore, folder: Path | None = None) -> list[str]:
    """Finish or undo every rewind a killed process left half done; one sentence for each
    (what was done, or why nothing could be). See the module's guarantee."""
    folder = folder if folder is not None else journal_folder(store)
    if folder is None or not folder.is_dir():
        return []
    told: list[str] = []
    for leftover in folder.glob(".*.tmp"):  # a journal killed while written: nothing began
        if (held := _claim(leftover)) is not None:
            end(held)
    for path in sorted(folder.glob("*.json")):
        claimed = _claim(path)
        if claimed is None:
            continue
        try:
            journal = _load(path)
        except (OSError, ValueError, TypeError, KeyError) as err:
            release(claimed)
            logger.error("unreadable rewind journal %s: %s", path, err)
            told.append(
                f"An interrupted file rewind could not be checked ({path} is unreadable); "
                "look at your files, then delete that file."
            )
            continue
        sentence = _settle(store, journal)
        if sentence is not None:
            end(claimed)
            told.append(sentence)
            logger.warning("interrupted rewind settled: %s", sentence)
        else:
            release(claimed)
            told.append(
                f"An interrupted file rewind in {journal.root} could not be finished (the "
                "folder cannot be read); open that folder again and restart weaver."
            )
    return told


def _settle(store: ConversationStore, journal: Journal) -> str | None:
    """Roll ``journal`` forward (every file holds its text from before or after) or back (a
    file holds neither); the sentence that says which, or ``None`` when the folder is gone."""
    root = Path(journal.root)
    if not root.is_dir():
        return None
    held = [_held(root, file.relative) for file in journal.files]
    changed = [
        f.relative
        for f, now in zip(journal.files, held, strict=True)
        if now is False or (now != f.before and now != f.after)
    ]
    names = ", ".join(f.relative for f in journal.files)
    try:
        if not changed:
            for file, now in zip(journal.files, held, strict=True):
                if now != file.after:
                    _put(root, file, file.after)
            for record_id, _old, new in journal.statuses:
                store.update_message(record_id, meta={"patch_status": new})
            return f"A file rewind was interrupted; it was finished ({names} rewound)."
        for file, now in zip(journal.files, held, strict=True):
            if file.relative not in changed and now != file.before:
                _put(root, file, file.before)
        for record_id, old, _new in journal.statuses:  # a kill among the record updates
            store.update_message(record_id, meta={"patch_status": old})
    except (WeaverError, OSError) as err:
        logger.error("could not settle the rewind in %s: %s", root, err)
        return None
    kept = [f.relative for f in journal.files if f.relative not in changed]
    back = f" ({', '.join(kept)} as before it)" if kept else ""
    return (
        f"A file rewind was interrupted and was undone{back}; {', '.join(changed)} changed "
        "since and was left alone."
    )


def _held(root: Path, relative: str) -> str | bool | None:
    """The file's text, ``None`` for no file, ``False`` when it is unreadable or not text (so
    changed since: no rewind wrote it)."""
    try:
        return read_confined(root, relative, MAX_JOURNAL_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        return None
    except (WeaverError, OSError, UnicodeDecodeError):
        return False


def _put(root: Path, file: JournalFile, text: str | None) -> None:
    if text is None:
        with contextlib.suppress(FileNotFoundError):
            remove_confined(root, file.relative)
        remove_empty_folders(root, file.new_folders)
    else:
        replace_confined(root, file.relative, text.encode("utf-8"))


def _load(path: Path) -> Journal:
    raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    files = tuple(
        JournalFile(
            str(f["relative"]),
            _text(f["before"]),
            _text(f["after"]),
            tuple(str(n) for n in f["new_folders"]),
        )
        for f in raw["files"]
    )
    statuses = tuple((str(r), str(o), str(n)) for r, o, n in raw["statuses"])
    return Journal(str(raw["root"]), files, statuses)


def _text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ValueError("a journal text is neither text nor null")


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
