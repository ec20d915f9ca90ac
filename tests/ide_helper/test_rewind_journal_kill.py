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
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import APPLIED, REVERTED
from agents.patch_review.rewind_journal import JOURNAL_FOLDER, finish_interrupted
from storage.sqlite_store import SqliteConversationStore

CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from agents.patch_review import rewind_journal
    from agents.patch_review.rewind import APPLIED, accepted_on, patches_on, rewind_all
    from storage.sqlite_store import SqliteConversationStore

    root, db, leaf, kill_at = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = SqliteConversationStore(Path(db))
    path = store.path_to_root(leaf)
    patches = patches_on(path, APPLIED, accepted_on(store, path))
    seen = []

    def hook(step):
        seen.append(step)
        if len(seen) == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    rewind_journal.step_hook = hook
    outcomes = rewind_all(root, store, [(p, "revert") for p in reversed(patches)])
    assert all(o.done for o in outcomes), [o.message for o in outcomes]
    print(len(seen))
    """
)


@dataclass(frozen=True)
class Change:
    name: str
    before: str | None
    after: str


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


def listing(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def setup(tmp: Path, files: list[Change]) -> tuple[Path, Path, str, list[str]]:
    """A project holding every change applied, and a store whose records accepted them."""
    root, db = tmp / "project", tmp / "data" / "weaver.db"
    root.mkdir(parents=True)
    with SqliteConversationStore(db) as store:
        conversation = store.create_conversation("ide-helper")
        leaf = store.add_message(conversation.id, "user", "go", None).id
        records: list[str] = []
        for change in files:
            edit = text_edit(change.before, change.after)
            target = root / change.name
            if change.before is None and "/" in change.name:
                edit["new_folders"] = [change.name.split("/")[0]]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(change.after.encode("utf-8"))
            meta = {"patch_id": f"p{len(records)}", "patch_path": change.name,
                    "patch_status": APPLIED, "patch_edit": edit}  # fmt: skip
            leaf = store.add_message(conversation.id, "tool", "applied", leaf, meta=meta).id
            store.accept_patch(
                leaf, f"p{len(records)}", change.name, edit["base_sha256"], edit["new_sha256"]
            )
            records.append(leaf)
    return root, db, leaf, records


def run_child(root: Path, db: Path, leaf: str, kill_at: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(root), str(db), leaf, str(kill_at)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def expected(files: list[Change], reverted: bool) -> dict[str, bytes]:
    shown: dict[str, bytes] = {}
    for change in files:
        text = change.before if reverted else change.after
        if text is not None:
            shown[change.name] = text.encode("utf-8")
    return shown


def statuses(db: Path, records: list[str]) -> set[object]:
    with SqliteConversationStore(db) as store:
        return {store.get_message(r).meta["patch_status"] for r in records}


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
