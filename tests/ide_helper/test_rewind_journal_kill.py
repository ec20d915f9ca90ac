"""A rewind killed at any step is finished or undone as a whole on the next start: for any 1-4
files (changed or created by a patch, any text), a real child process reverting them all is
SIGKILLed at a generated step (after its journal is written, after any rename or removal,
after any record update); then :func:`finish_interrupted` runs, and the files on disk and the
patch records agree: all the texts from before with every record applied, or all the texts
from after with every record reverted. A file edited by hand after the kill is left alone, and
the others are put back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.patch_review.rewind import APPLIED, REVERTED
from agents.patch_review.rewind_journal import (
    JOURNAL_FOLDER,
    Journal,
    JournalFile,
    begin,
    finish_interrupted,
    release,
)
from storage.sqlite_store import SqliteConversationStore
from tests.support.killed_rewinds import (
    STARTING,
    Change,
    expected,
    listing,
    run_child,
    setup,
    statuses,
)

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)


@st.composite
def changes(draw: st.DrawFn) -> list[Change]:
    count = draw(st.integers(1, 4))
    found = []
    for index in range(count):
        created = draw(st.booleans())
        before = None if created else draw(TEXT)
        after = draw(TEXT)
        if after == before:
            after += "!"
        name = f"n{index}/new.txt" if created and index % 2 else f"f{index}.txt"
        found.append(Change(name, before, after))
    return found


def recover(db: Path) -> list[str]:
    with SqliteConversationStore(db) as store:
        return finish_interrupted(store)


def steps_of(files: list[Change]) -> int:
    """The steps a reverting child announces: the journal, one per file, one per record."""
    return 1 + 2 * len(files)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(files=changes(), data=st.data())
def test_a_kill_at_any_step_leaves_files_and_records_agreeing(
    tmp_path_factory: pytest.TempPathFactory, files: list[Change], data: st.DataObject
) -> None:
    tmp = tmp_path_factory.mktemp("kill")
    root, db, leaf, records = setup(tmp, files)
    kill_at = data.draw(st.integers(1, steps_of(files)), label="kill_at")
    done = run_child(root, db, leaf, kill_at)
    assert done.returncode == -9, done.stderr
    told = recover(db)
    assert len(told) == 1
    assert list((db.parent / JOURNAL_FOLDER).glob("*")) == []
    status = statuses(db, records)
    assert status in ({APPLIED}, {REVERTED})
    assert listing(root) == expected(files, status == {REVERTED})


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(files=changes(), data=st.data(), edited=TEXT)
def test_a_file_edited_after_the_kill_is_left_alone_and_the_rest_put_back(
    tmp_path_factory: pytest.TempPathFactory, files: list[Change], data: st.DataObject, edited: str
) -> None:
    tmp = tmp_path_factory.mktemp("edit")
    root, db, leaf, records = setup(tmp, files)
    kill_at = data.draw(st.integers(1, steps_of(files)), label="kill_at")
    assert run_child(root, db, leaf, kill_at).returncode == -9
    victim = data.draw(st.sampled_from(files), label="victim")
    hand = f"edited by hand {edited}"
    (root / victim.name).parent.mkdir(parents=True, exist_ok=True)
    (root / victim.name).write_text(hand, encoding="utf-8", newline="")
    told = recover(db)
    assert len(told) == 1
    assert victim.name in told[0]
    wanted = expected(files, reverted=False)
    wanted[victim.name] = hand.encode("utf-8")
    assert listing(root) == wanted
    assert statuses(db, records) == {APPLIED}


def test_the_child_counts_its_steps(tmp_path: Path) -> None:
    """The steps the generated kills draw from are the ones a rewind takes (no kill)."""
    files = [Change("a.txt", "a\r\n", "b"), Change("n1/new.txt", None, "x"), Change("c", "", "c")]
    root, db, leaf, records = setup(tmp_path, files)
    done = run_child(root, db, leaf, 0)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == steps_of(files)
    assert listing(root) == expected(files, reverted=True)
    assert statuses(db, records) == {REVERTED}
    assert recover(db) == []


def test_a_live_rewind_is_not_taken_for_an_interrupted_one(tmp_path: Path) -> None:
    """While a rewind runs (its journal locked), another process's start leaves it alone;
    once that process is gone, the journal is settled."""
    files = [Change("a.txt", "a", "b"), Change("b.txt", "c", "d")]
    root, db, _leaf, records = setup(tmp_path, files)
    folder = db.parent / JOURNAL_FOLDER
    entries = tuple(JournalFile(c.name, c.after, c.before, ()) for c in files)
    live = begin(
        folder, Journal(str(root), entries, tuple((r, APPLIED, REVERTED) for r in records))
    )
    (root / "a.txt").write_text("a")  # the live rewind's first rename
    starting = [sys.executable, "-c", STARTING, str(db)]  # a second process starts meanwhile
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.run(starting, env=env, capture_output=True, text=True, check=False)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "[]"
    assert listing(root) == {"a.txt": b"a", "b.txt": b"d"}
    assert live.path.exists()
    release(live)
    assert len(recover(db)) == 1
    assert statuses(db, records) == {REVERTED}
    assert listing(root) == expected(files, reverted=True)


def test_finishing_keeps_permission_bits_and_never_follows_a_link_put_since(
    tmp_path: Path,
) -> None:
    """Settling writes through the confined path as any rewind does: a file's mode is kept,
    and a link put in place of a file after the kill is left alone (its target untouched),
    the other files put back."""
    files = [Change("a.sh", "a", "b"), Change("b.sh", "c", "d")]
    root, db, leaf, records = setup(tmp_path / "mode", files)
    for change in files:
        (root / change.name).chmod(0o751)
    assert run_child(root, db, leaf, 2).returncode == -9
    assert len(recover(db)) == 1
    assert {(root / c.name).stat().st_mode & 0o777 for c in files} == {0o751}
    assert listing(root) == expected(files, reverted=True)

    root, db, leaf, records = setup(tmp_path / "link", files)
    assert run_child(root, db, leaf, 2).returncode == -9
    outside = tmp_path / "outside.txt"
    outside.write_text("d")
    linked = next(c for c in files if (root / c.name).read_text() == c.after)
    (root / linked.name).unlink()
    (root / linked.name).symlink_to(outside)
    told = recover(db)
    assert len(told) == 1
    assert linked.name in told[0]
    assert outside.read_text() == "d"
    assert (root / linked.name).is_symlink()
    others = [c for c in files if c is not linked]
    assert all((root / c.name).read_text() == c.after for c in others)
    assert statuses(db, records) == {APPLIED}
