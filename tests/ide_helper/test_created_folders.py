"""A patch that creates a file in folders that do not exist yet leaves the project as it was
when it fails, and when it is undone: the folders it made go with it (when empty), and a
redo makes them again.

Generated: a new file one to three folders deep, some of them there already (one holding
another file), accepted (or failing on a full disk), undone and redone: the project's whole
tree (folders included) is compared before and after.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import confined_files
from agents.patch_review.patches import make_patch
from agents.patch_review.review import settle
from agents.patch_review.rewind import APPLIED, REVERTED, PatchOnBranch, rewind_all
from storage.sqlite_store import SqliteConversationStore


def tree(root: Path) -> dict[str, bytes | None]:
    """Every folder (``None``) and file (its bytes) below ``root``."""
    found: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            found[str(Path(folder, name).relative_to(root))] = None
        for name in files:
            path = Path(folder, name)
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


@given(
    depth=st.integers(1, 3),
    existing=st.integers(0, 3),
    neighbour=st.booleans(),
    disk_full=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_the_folders_a_created_file_needed_come_and_go_with_it(
    depth: int, existing: int, neighbour: bool, disk_full: bool
) -> None:
    folders = ["pkg", "sub", "deep"][:depth]
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        root = Path(tmp) / "project"
        root.mkdir()
        (root / "README").write_text("r\n")
        there = folders[: min(existing, depth)]
        if there:
            (root.joinpath(*there)).mkdir(parents=True)
            if neighbour:
                (root.joinpath(*there) / "kept.txt").write_text("k\n")
        name = "/".join([*folders, "new.py"])
        patch = make_patch(root, name, 1, 0, "x = 1\n")
        before = tree(root)
        if disk_full:

            def full(*_args: object) -> None:
                raise OSError(28, "No space left on device")

            with monkeypatch.context() as patched:
                patched.setattr(confined_files, "_write_all", full)
                assert settle(root, patch, "accept").status == "failed"
            assert tree(root) == before
            return
        assert settle(root, patch, "accept").status == APPLIED
        applied = tree(root)
        edit = patch.edit
        assert edit is not None
        with SqliteConversationStore(Path(tmp) / "weaver.db") as store:
            conversation = store.create_conversation("ide-helper")
            record = store.add_message(conversation.id, "user", "go", None)
            found = PatchOnBranch(record.id, patch.id, name, APPLIED, edit)
            [undone] = rewind_all(root, store, [(found, "revert")])
            assert undone.done, undone.message
            assert tree(root) == before
            again = PatchOnBranch(record.id, patch.id, name, REVERTED, edit)
            [redone] = rewind_all(root, store, [(again, "redo")])
            assert redone.done, redone.message
            assert tree(root) == applied
