"""A rewind of several patches over several files is all or nothing.

Generated: a branch of accepted patches over a few files (each applied in turn), then an undo
of the newest few (as checking out an earlier message does) and a redo of them, with a file
edited by hand in between or a write that fails on the disk. Afterwards either every file
holds what the steps make of it and every record its new status, or every file holds its bytes
from before and no record changed; every outcome says which.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import confined_files
from agents.patch_review import rewind as rewind_module
from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import (
    APPLIED,
    REVERTED,
    PatchOnBranch,
    Step,
    accepted_on,
    patches_on,
    rewind_all,
)
from storage.sqlite_store import SqliteConversationStore

FILES = ["a.txt", "src/b.txt", "c.txt"]
_texts = st.sampled_from(["", "one\n", "one\ntwo\n", "x\r\ny\r\n", "\ufeffz", "tail"])
# (file index, new text or None to create-then-see) per accepted patch, oldest first
_history = st.lists(st.tuples(st.integers(0, len(FILES) - 1), _texts), min_size=1, max_size=6)


def snapshot(root: Path) -> dict[str, bytes | None]:
    return {name: (root / name).read_bytes() if (root / name).exists() else None for name in FILES}


def build(
    root: Path, store: SqliteConversationStore, history: list[tuple[int, str]]
) -> list[PatchOnBranch]:
    """Apply ``history`` to the files as accepted patches (records + acceptance rows), the
    first patch of a file that did not exist creating it; the branch's patches, oldest first."""
    conversation = store.create_conversation("ide-helper")
    parent = store.add_message(conversation.id, "user", "go", None).id
    current: dict[str, str | None] = {name: None for name in FILES}
    for number, (index, text) in enumerate(history):
        name = FILES[index]
        new = f"{text}{number}\n"  # every patch changes its file
        edit = text_edit(current[name], new)
        meta = {"patch_id": f"p-{number}", "patch_path": name, "patch_status": APPLIED,
                "patch_edit": edit}  # fmt: skip
        parent = store.add_message(conversation.id, "tool", "applied", parent, meta=meta).id
        store.accept_patch(parent, f"p-{number}", name, edit["base_sha256"], edit["new_sha256"])
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(new.encode())
        current[name] = new
    path = store.path_to_root(parent)
    return patches_on(path, APPLIED, accepted_on(store, path))


@contextmanager
def failing_writes(monkeypatch: pytest.MonkeyPatch, fail_at: int | None) -> Iterator[None]:
    """The ``fail_at``-th write step of the rewind (preparing a file's new bytes, putting
    them in place, removing a file) fails as a full disk would."""
    calls = {"n": 0}

    def step() -> None:
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise OSError(28, "No space left on device")

    class Commit:
        def __init__(self, write: confined_files.PreparedWrite) -> None:
            self.write = write

        def commit(self) -> None:
            try:
                step()
            except OSError:
                self.write.discard()
                raise
            self.write.commit()

        def discard(self) -> None:
            self.write.discard()

    def prepare(*args: Any) -> Commit:
        step()
        return Commit(confined_files.prepare_replace(*args))

    def remove(*args: Any) -> None:
        step()
        confined_files.remove_confined(*args)

    with monkeypatch.context() as patched:
        patched.setattr(rewind_module, "prepare_replace", prepare)
        patched.setattr(rewind_module, "remove_confined", remove)
        yield


def statuses(store: SqliteConversationStore, patches: list[PatchOnBranch]) -> list[str]:
    return [store.get_message(p.record_id).meta["patch_status"] for p in patches]


def check_all_or_nothing(
    root: Path,
    store: SqliteConversationStore,
    steps: list[Step],
    monkeypatch: pytest.MonkeyPatch,
    fail_at: int | None,
) -> bool:
    """Run ``steps``; assert all or nothing happened; return whether all did."""
    before, records_before = snapshot(root), statuses(store, [p for p, _ in steps])
    with failing_writes(monkeypatch, fail_at):
        outcomes = rewind_all(root, store, steps)
    assert len(outcomes) == len(steps)
    done = {outcome.done for outcome in outcomes}
    assert len(done) == 1, [o.message for o in outcomes]  # all or none
    if done == {False}:
        assert snapshot(root) == before
        assert statuses(store, [p for p, _ in steps]) == records_before
        assert all(o.record is None and o.message for o in outcomes)
        return False
    wanted = [REVERTED if direction == "revert" else APPLIED for _p, direction in steps]
    assert statuses(store, [p for p, _ in steps]) == wanted
    return True


@given(
    history=_history,
    back=st.integers(1, 6),
    edited=st.none() | st.integers(0, len(FILES) - 1),
    fail_at=st.none() | st.integers(1, 6),
)
@settings(max_examples=120, deadline=None)
def test_undo_then_redo_of_several_patches_is_all_or_nothing(
    history: list[tuple[int, str]],
    back: int,
    edited: int | None,
    fail_at: int | None,
) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        root = Path(folder) / "project"
        root.mkdir()
        with SqliteConversationStore(Path(folder) / "weaver.db") as store:
            patches = build(root, store, history)
            undone = patches[-back:]
            expected_after_undo = _replay(history[: len(patches) - len(undone)])
            patched = snapshot(root)
            touched = {patch.path for patch in undone}
            if edited is not None:  # a hand edit no patch ever wrote
                (root / FILES[edited]).parent.mkdir(parents=True, exist_ok=True)
                (root / FILES[edited]).write_bytes(b"by hand\n")
            steps: list[Step] = [(patch, "revert") for patch in reversed(undone)]
            reverted = check_all_or_nothing(root, store, steps, monkeypatch, fail_at)
            conflicts = edited is not None and FILES[edited] in touched
            if not conflicts and fail_at is None:
                assert reverted
            if reverted:
                for name in touched:
                    assert snapshot(root)[name] == expected_after_undo[name]
                redo_steps: list[Step] = [
                    (PatchOnBranch(p.record_id, p.patch_id, p.path, REVERTED, p.edit), "redo")
                    for p in undone
                ]
                assert check_all_or_nothing(root, store, redo_steps, monkeypatch, None)
                for name in touched:
                    assert snapshot(root)[name] == patched[name]


def _replay(history: list[tuple[int, str]]) -> dict[str, bytes | None]:
    """The files' bytes after the first patches of ``history`` (``None``: no file)."""
    files: dict[str, bytes | None] = {name: None for name in FILES}
    for number, (index, text) in enumerate(history):
        files[FILES[index]] = f"{text}{number}\n".encode()
    return files


def test_a_conflict_in_the_third_revert_leaves_the_first_two_applied(tmp_path: Path) -> None:
    """The reported shape: going back over three patches of three files, the oldest file
    edited by hand since: no file moves, and each outcome says why."""
    root = tmp_path / "project"
    root.mkdir()
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        patches = build(root, store, [(0, "one\n"), (1, "two\n"), (2, "three\n")])
        (root / "a.txt").write_text("mine\n")
        before = snapshot(root)
        outcomes = rewind_all(root, store, [(p, "revert") for p in reversed(patches)])
        assert [o.done for o in outcomes] == [False, False, False]
        assert snapshot(root) == before
        assert "a.txt" in outcomes[2].message
        assert all("p-0" in o.message for o in outcomes[:2])
        assert statuses(store, patches) == [APPLIED, APPLIED, APPLIED]
