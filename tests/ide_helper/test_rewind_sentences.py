"""Every refusal of accept, undo or redo is one sentence a person reads, and the file is left
as it was: generated file contents (any bytes, not UTF-8 among them) met by an undo or redo,
and writes the disk refuses, never surface a codec message, an errno or a temporary file."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patch_review import patches as patches_module
from agents.patch_review import rewind as rewind_module
from agents.patch_review.file_edit import text_edit
from agents.patch_review.patches import make_patch
from agents.patch_review.review import settle
from agents.patch_review.rewind import APPLIED, REVERTED, Direction, PatchOnBranch, rewind_all
from storage.sqlite_store import SqliteConversationStore

RAW = ("codec", "errno", "Errno", "0x", ".tmp", "Traceback", "position")
BEFORE, AFTER = "a = 1\n", "a = 2\n"


def plain(sentence: str) -> bool:
    return bool(sentence) and not any(raw in sentence for raw in RAW)


@given(
    held=st.binary(max_size=12) | st.sampled_from([b"caf\xe9\n", b"\xff\xfe", b"a = 3\n"]),
    direction=st.sampled_from(["revert", "redo"]),
)
@settings(max_examples=100, deadline=None)
def test_any_bytes_in_the_file_are_rewound_or_refused_in_a_sentence(
    held: bytes, direction: Direction
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "f.py").write_bytes(held)
        edit = text_edit(BEFORE, AFTER)
        with SqliteConversationStore(root / "weaver.db") as store:
            conversation = store.create_conversation("ide-helper")
            user = store.add_message(conversation.id, "user", "go", None)
            status = APPLIED if direction == "revert" else REVERTED
            record = store.add_message(conversation.id, "tool", "r", user.id)
            patch = PatchOnBranch(record.id, "p-1", "f.py", status, edit)
            [outcome] = rewind_all(root, store, [(patch, direction)])
        if held in (BEFORE.encode(), AFTER.encode()):
            assert outcome.done
        else:
            assert not outcome.done
            assert plain(outcome.message), outcome.message
            assert (root / "f.py").read_bytes() == held


def refusing(strerror: str) -> Callable[..., None]:
    def write(*_args: Any) -> None:
        raise OSError(28, strerror, "/project/src/.app.py.1a2b3c4d.tmp")

    return write


def test_a_write_the_disk_refuses_is_a_sentence_at_accept_undo_and_redo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "f.py").write_text(BEFORE)
    patch = make_patch(tmp_path, "f.py", 1, 1, "a = 2")
    with monkeypatch.context() as patched:
        patched.setattr(patches_module, "replace_confined", refusing("No space left on device"))
        outcome = settle(tmp_path, patch, "accept")
    assert outcome.status == "failed"
    assert plain(outcome.message), outcome.message
    assert "no space left on device" in outcome.message
    assert (tmp_path / "f.py").read_text() == BEFORE

    assert settle(tmp_path, patch, "accept").status == APPLIED
    edit = patch.edit
    assert edit is not None
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper")
        user = store.add_message(conversation.id, "user", "go", None)
        record = store.add_message(conversation.id, "tool", "r", user.id)
        found = PatchOnBranch(record.id, patch.id, "f.py", APPLIED, edit)
        with monkeypatch.context() as patched:
            patched.setattr(rewind_module, "prepare_replace", refusing("Permission denied"))
            [undone] = rewind_all(tmp_path, store, [(found, "revert")])
    assert not undone.done
    assert plain(undone.message), undone.message
    assert (tmp_path / "f.py").read_text() == AFTER
