"""Checking a patch (what the review screen does on accept) never writes: for any state of the
file (missing, as proposed from, already patched, changed otherwise), the bytes stay as they
were, and the answer is the one applying would meet (already applied, applies, conflict)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patch_review.patches import PatchConflict, apply_patch, check_patch, make_patch
from tests.ide_helper.conftest import write

_text = st.sampled_from(["", "a\n", "a\nb\n", "x\r\ny\r\n", "\ufeffz\n", "tail"])


@given(
    base=st.none() | _text,
    state=st.sampled_from(["base", "patched", "other", "missing"]),
)
@settings(max_examples=80, deadline=None)
def test_checking_writes_nothing_and_predicts_applying(base: str | None, state: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if base is not None:
            write(root, "f.txt", base)
        count = 0 if not base else len(base.removeprefix("\ufeff").split("\n")) - 1
        count += 1 if base and not base.endswith("\n") else 0
        patch = make_patch(root, "f.txt", count + 1, count, "added")
        if state == "patched":
            write(root, "f.txt", patch.new_content)
        elif state == "other":
            write(root, "f.txt", "by hand\n")
        elif state == "missing" and (root / "f.txt").exists():
            (root / "f.txt").unlink()
        target = root / "f.txt"
        before = target.read_bytes() if target.exists() else None
        conflict = (state == "other") or (state == "missing" and base is not None)
        if conflict:
            with pytest.raises(PatchConflict):
                check_patch(root, patch)
        else:
            assert check_patch(root, patch) == (state == "patched")
        assert (target.read_bytes() if target.exists() else None) == before
        if not conflict:
            apply_patch(root, patch)
            assert target.read_bytes() == patch.new_content.encode()


def test_a_reject_meeting_the_patched_text_does_not_say_unchanged(tmp_path: Path) -> None:
    """An accept that wrote the file but stopped before its outcome was recorded (a kill),
    then a reject: the recorded sentence says the file holds the patch, not "not changed"."""
    from agents.patch_review.review import settle

    write(tmp_path, "f.txt", "a\n")
    patch = make_patch(tmp_path, "f.txt", 1, 1, "b")
    assert "not changed" in settle(tmp_path, patch, "reject").message
    apply_patch(tmp_path, patch)
    outcome = settle(tmp_path, patch, "reject")
    assert outcome.status == "rejected"
    assert "not changed" not in outcome.message
    assert "already holds" in outcome.message
