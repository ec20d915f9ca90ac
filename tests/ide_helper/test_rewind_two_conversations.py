"""A patch accepted in one conversation and copied with its branch into another ("Branch as new
conversation") is one change of one file: undone from the copy, the original's undo writes
nothing and says so (it does not claim to restore the file), and a redo from either re-applies
it once."""

from __future__ import annotations

from pathlib import Path

from agents.patch_review.file_edit import text_edit
from agents.patch_review.rewind import APPLIED, Direction, next_to_rewind, rewind
from storage.branch_copy import branch_to_conversation
from storage.sqlite_store import SqliteConversationStore

BEFORE, AFTER = "x = 1\n", "x = 2\n"


def test_undo_from_the_copy_then_from_the_original(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "f.py").write_text(AFTER)
    edit = text_edit(BEFORE, AFTER)
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        original = store.create_conversation("ide-helper", meta={"project_root": str(project)})
        user = store.add_message(original.id, "user", "bump x", None)
        meta = {"patch_id": "p-1", "patch_path": "f.py", "patch_status": APPLIED,
                "patch_edit": edit}  # fmt: skip
        tool = store.add_message(original.id, "tool", "Applied", user.id, meta=meta)
        store.accept_patch(tool.id, "p-1", "f.py", edit["base_sha256"], edit["new_sha256"])
        copy = branch_to_conversation(store, tool.id)

        def undo_in(conversation_id: str, direction: Direction = "revert") -> str:
            leaf = store.active_leaf(conversation_id)
            assert leaf is not None
            patch = next_to_rewind(store, store.path_to_root(leaf.id), direction)
            assert patch is not None
            outcome = rewind(project, store, patch, direction)
            assert outcome.done, outcome.message
            return outcome.message

        assert "restored the file" in undo_in(copy.id)
        assert (project / "f.py").read_text() == BEFORE
        said = undo_in(original.id)
        assert "restored" not in said
        assert "nothing was written" in said
        assert (project / "f.py").read_text() == BEFORE
        assert "Re-applied" in undo_in(original.id, "redo")
        assert "nothing was written" in undo_in(copy.id, "redo")
        assert (project / "f.py").read_text() == AFTER
