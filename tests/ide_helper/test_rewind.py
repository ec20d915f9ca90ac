"""Rewind: a patch accepted through the real runtime can be reverted (only while the file
still holds the patched text, else a conflict that leaves the file alone) and re-applied, and
a move in the tree names the patches to revert and to re-apply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.patch_review.file_edit import redo_text, text_edit, undo_text
from agents.patch_review.patches import make_patch
from agents.patch_review.rewind import (
    APPLIED,
    REVERTED,
    PatchOnBranch,
    accepted_on,
    patches_on,
    patches_to_rewind,
    rewind,
)
from agents.runtime.events import RunFinished
from storage.sqlite_store import SqliteConversationStore
from tests.ide_helper.conftest import APP_PY
from tests.ide_helper.test_review_flow import pause_on_a_patch, resume_after_restart
from tests.support.fake_openai import Reply

PATCHED = APP_PY.replace("Hello, {name}", "Hi, {name}")


async def accepted_patch(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> tuple[SqliteConversationStore, str, PatchOnBranch]:
    """A patch proposed, accepted and applied by the real runtime: (store, leaf, patch)."""
    conversation_id, record_id = await pause_on_a_patch(
        tmp_path, project, fake_openai, openai_model()
    )
    fake_openai.script(Reply("Done."))
    events, store = await resume_after_restart(
        tmp_path, conversation_id, record_id, "accept", openai_model()
    )
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    path = store.path_to_root(finished.leaf_id)
    [patch] = patches_on(path, APPLIED, accepted_on(store, path))
    return store, finished.leaf_id, patch


async def test_an_accepted_patch_is_reverted_then_redone(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    store, _leaf, patch = await accepted_patch(tmp_path, project, fake_openai, openai_model)
    try:
        assert (project / "src/app.py").read_text() == PATCHED

        undone = rewind(project, store, patch, "revert")
        assert undone.done, undone.message
        assert (project / "src/app.py").read_text() == APP_PY
        assert store.get_message(patch.record_id).meta["patch_status"] == REVERTED
        assert undone.record == store.get_message(patch.record_id)  # carried as written

        again = PatchOnBranch.of(
            store.get_message(patch.record_id), store.accepted_patches([patch.record_id])
        )
        assert again is not None
        redone = rewind(project, store, again, "redo")
        assert redone.done, redone.message
        assert (project / "src/app.py").read_text() == PATCHED
        assert store.get_message(patch.record_id).meta["patch_status"] == APPLIED
        assert redone.record == store.get_message(patch.record_id)
    finally:
        store.close()


async def test_a_file_changed_since_is_a_conflict_and_left_alone(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    store, _leaf, patch = await accepted_patch(tmp_path, project, fake_openai, openai_model)
    try:
        edited_by_hand = PATCHED + "# mine\n"
        (project / "src/app.py").write_text(edited_by_hand)
        outcome = rewind(project, store, patch, "revert")
        assert not outcome.done
        assert "src/app.py" in outcome.message
        assert "not reverted" in outcome.message
        assert outcome.record is None  # nothing written
        assert (project / "src/app.py").read_text() == edited_by_hand
        assert store.get_message(patch.record_id).meta["patch_status"] == APPLIED
    finally:
        store.close()


def test_a_created_file_is_deleted_on_revert_and_created_again_on_redo(
    tmp_path: Path, project: Path
) -> None:
    patch = make_patch(project, "src/new.py", 1, 0, "x = 1\n")
    (project / "src/new.py").write_text(patch.new_content)
    store = SqliteConversationStore(tmp_path / "weaver.db")
    try:
        conversation = store.create_conversation("ide-helper")
        user = store.add_message(conversation.id, "user", "make it", None)
        meta = {"patch_id": patch.id, "patch_path": "src/new.py", "patch_status": APPLIED}
        record = store.add_message(
            conversation.id, "tool", "Created", user.id, meta={**meta, "patch_edit": patch.edit}
        )
        assert patch.edit is not None
        store.accept_patch(record.id, patch.id, "src/new.py", None, patch.edit["new_sha256"])
        found = PatchOnBranch.of(record, store.accepted_patches([record.id]))
        assert found is not None
        assert rewind(project, store, found, "revert").done
        assert not (project / "src/new.py").exists()
        assert rewind(project, store, found, "redo").done
        assert (project / "src/new.py").read_text() == "x = 1\n"
    finally:
        store.close()


def test_text_edits_round_trip_and_refuse_other_text() -> None:
    old, new = "a\r\nb\r\nc\r\n", "a\r\nB, and more\r\nc\r\n"
    edit = text_edit(old, new)
    assert undo_text(edit, new) == old
    assert redo_text(edit, old) == new
    assert len(edit["removed"]) < len(old)  # only the changed span is kept
    try:
        undo_text(edit, "something else entirely")
    except ValueError:
        pass
    else:
        raise AssertionError("a text without the patched span must be refused")


def test_moving_to_an_earlier_message_reverts_what_followed_and_another_branch_redoes(
    tmp_path: Path,
) -> None:
    store = SqliteConversationStore(tmp_path / "weaver.db")
    try:
        conversation = store.create_conversation("ide-helper")
        cid = conversation.id
        first = store.add_message(cid, "user", "one", None)
        edit = text_edit("a", "b")

        def patch_record(parent: str, pid: str, status: str) -> str:
            meta = {"patch_id": pid, "patch_path": "f", "patch_status": status, "patch_edit": edit}
            record_id = store.add_message(cid, "tool", pid, parent, meta=meta).id
            store.accept_patch(record_id, pid, "f", edit["base_sha256"], edit["new_sha256"])
            return record_id

        p1 = patch_record(first.id, "p-1", APPLIED)
        second = store.add_message(cid, "user", "two", p1)
        p2 = patch_record(second.id, "p-2", APPLIED)
        p3 = patch_record(p2, "p-3", APPLIED)
        other = store.add_message(cid, "user", "two again", p1)
        p4 = patch_record(other.id, "p-4", REVERTED)
        old_path = store.path_to_root(p3)

        accepted = accepted_on(store, old_path, store.path_to_root(p4))
        revert, redo = patches_to_rewind(old_path, old_path, first.id, accepted)
        assert [p.patch_id for p in revert] == ["p-3", "p-2", "p-1"]
        assert redo == []

        revert, redo = patches_to_rewind(old_path, store.path_to_root(p4), other.id, accepted)
        assert [p.patch_id for p in revert] == ["p-3", "p-2"]
        assert [p.patch_id for p in redo] == ["p-4"]
    finally:
        store.close()
