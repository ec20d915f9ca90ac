"""A patch writes the file its review named, or nothing.

Generated: between proposing a patch and accepting it (or undoing and redoing it), the file
or one of its folders is swapped for a link to a copy with the same bytes, to another file, or
for a folder. Afterwards either the named file (no link on the way) holds the result and the
outcome says so, or no file, link or folder of the project changed and one sentence says why.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patch_review.file_edit import text_edit
from agents.patch_review.patches import make_patch
from agents.patch_review.review import settle
from agents.patch_review.rewind import APPLIED, Direction, PatchOnBranch, rewind_all
from storage.sqlite_store import SqliteConversationStore

SWAPS = ["none", "file_to_same_copy", "file_to_other", "folder_to_copy", "file_to_folder"]


def tree(root: Path) -> dict[str, tuple[str, str | bytes]]:
    """Every entry under ``root``, links not followed: files by bytes, links by target."""
    found: dict[str, tuple[str, str | bytes]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_dir():
                found[key] = ("dir", "")
            else:
                found[key] = ("file", path.read_bytes())
    return found


def lay_out(root: Path, text: str) -> None:
    (root / "src").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / "src/app.py").write_text(text)
    (root / "src/copy.py").write_text(text)
    (root / "src/other.py").write_text("other\n")
    (root / "lib/app.py").write_text(text)


def swap(root: Path, how: str) -> None:
    """Put something else where ``src/app.py`` was reviewed."""
    if how == "file_to_same_copy":
        (root / "src/app.py").unlink()
        os.symlink("copy.py", root / "src/app.py")
    elif how == "file_to_other":
        (root / "src/app.py").unlink()
        os.symlink("other.py", root / "src/app.py")
    elif how == "folder_to_copy":
        os.rename(root / "src", root / "src_before")
        os.symlink("lib", root / "src")
    elif how == "file_to_folder":
        (root / "src/app.py").unlink()
        (root / "src/app.py").mkdir()


@given(how=st.sampled_from(SWAPS), when=st.sampled_from(["accept", "undo", "redo"]))
@settings(max_examples=60, deadline=None)
def test_a_write_lands_on_the_reviewed_file_or_nowhere(how: str, when: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        lay_out(root, "a = 1\n")
        patch = make_patch(root, "src/app.py", 1, 1, "a = 2")
        if when == "accept":
            swap(root, how)
            before = tree(root)
            outcome = settle(root, patch, "accept")
            written = outcome.status == "applied"
            target_text = patch.new_content
        else:
            assert settle(root, patch, "accept").status == "applied"
            with SqliteConversationStore(Path(tmp) / "weaver.db") as store:
                conversation = store.create_conversation("ide-helper")
                user = store.add_message(conversation.id, "user", "go", None)
                edit = patch.edit or text_edit("a = 1\n", patch.new_content)
                status = APPLIED if when == "undo" else "reverted"
                meta = {"patch_id": patch.id, "patch_path": "src/app.py",
                        "patch_status": status, "patch_edit": edit}  # fmt: skip
                record = store.add_message(conversation.id, "tool", "r", user.id, meta=meta)
                store.accept_patch(
                    record.id, patch.id, "src/app.py", edit["base_sha256"], edit["new_sha256"]
                )
                if when == "redo":  # undone by hand first, so a redo has work to do
                    (root / "src/app.py").write_text("a = 1\n")
                    (root / "lib/app.py").write_text("a = 1\n")
                    (root / "src/copy.py").write_text("a = 1\n")
                else:
                    (root / "lib/app.py").write_text(patch.new_content)
                    (root / "src/copy.py").write_text(patch.new_content)
                swap(root, how)
                before = tree(root)
                found = PatchOnBranch(record.id, patch.id, "src/app.py", status, edit)
                direction: Direction = "revert" if when == "undo" else "redo"
                [done] = rewind_all(root, store, [(found, direction)])
                written = done.done
                target_text = "a = 1\n" if when == "undo" else patch.new_content
                assert done.message
        after = tree(root)
        if how == "none":
            assert written
        if written:
            assert not (root / "src").is_symlink()
            assert not (root / "src/app.py").is_symlink()
            assert (root / "src/app.py").read_text() == target_text
            changed = {k for k in after if after[k] != before.get(k)} | set(before) - set(after)
            assert changed == {"src/app.py"}
        else:
            assert after == before


def test_a_link_put_in_place_of_the_reviewed_file_is_refused(tmp_path: Path) -> None:
    """The reported shape: the file swapped for a link to a copy with the same bytes."""
    root = tmp_path / "project"
    lay_out(root, "a = 1\n")
    patch = make_patch(root, "src/app.py", 1, 1, "a = 2")
    swap(root, "file_to_same_copy")
    outcome = settle(root, patch, "accept")
    assert outcome.status == "failed"
    assert "src/copy.py" in outcome.message
    assert (root / "src/copy.py").read_text() == "a = 1\n"
