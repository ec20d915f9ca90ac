"""propose_edit's patches: a unified diff and the new content, never a write; accept applies
atomically only over the content the patch was made from; reject leaves the file alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from agents.errors import ToolError
from agents.patch_review.patches import (
    Patch,
    PatchConflict,
    apply_patch,
    make_patch,
    reject_patch,
    sha256_bytes,
)
from agents.patch_review.review import settle
from tests.ide_helper.conftest import APP_PY, write


def test_proposing_returns_a_diff_and_writes_nothing(project: Path) -> None:
    before = (project / "src/app.py").read_bytes()
    patch = make_patch(project, "src/app.py", 5, 5, '    return f"Hi, {name}!"', "call_1")
    assert (project / "src/app.py").read_bytes() == before
    assert patch.base_sha256 == sha256_bytes(before)
    assert patch.path == "src/app.py"
    assert patch.tool_call_id == "call_1"
    assert patch.id.startswith("p-")
    assert patch.diff.splitlines()[:3] == [
        "--- a/src/app.py",
        "+++ b/src/app.py",
        "@@ -2,7 +2,7 @@",
    ]
    assert '-    return f"Hello, {name}!"' in patch.diff.splitlines()
    assert '+    return f"Hi, {name}!"' in patch.diff.splitlines()
    assert patch.new_content == APP_PY.replace("Hello, {name}", "Hi, {name}")
    assert patch.summary == f"{patch.id} src/app.py (+1 -1)"
    assert Patch.from_dict(patch.to_dict()) == patch


def test_accept_applies_atomically_and_keeps_the_mode(project: Path) -> None:
    target = project / "src/app.py"
    os.chmod(target, 0o750)
    patch = make_patch(project, "src/app.py", 4, 5, "def greet(name):\n    return name\n")
    message = apply_patch(project, patch)
    assert message == f"Applied patch {patch.id} to src/app.py (+2 -2)."
    assert target.read_text() == patch.new_content
    assert "def greet(name):\n    return name\n\n\ndef farewell" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert [p.name for p in target.parent.iterdir() if p.name.endswith(".tmp")] == []
    # Applying again (the app applied it before resuming the turn) neither writes nor fails.
    written = target.stat().st_mtime_ns
    assert apply_patch(project, patch) == message
    assert target.stat().st_mtime_ns == written


def test_conflict_when_the_file_changed_after_proposing(project: Path) -> None:
    patch = make_patch(project, "src/app.py", 1, 1, '"""A renamed app."""')
    write(project, "src/app.py", APP_PY + "\n# edited by hand\n")
    with pytest.raises(PatchConflict) as caught:
        apply_patch(project, patch)
    assert caught.value.user_message == (
        f"src/app.py has changed since patch {patch.id} was proposed, so it was not applied; "
        "read the file again and propose a new edit."
    )
    assert (project / "src/app.py").read_text().endswith("# edited by hand\n")
    assert settle(project, patch, "accept").status == "conflict"


def test_conflict_when_the_file_was_deleted(project: Path) -> None:
    patch = make_patch(project, "src/app.py", 1, 1, "x = 1")
    (project / "src/app.py").unlink()
    with pytest.raises(PatchConflict, match="was deleted"):
        apply_patch(project, patch)
    assert not (project / "src/app.py").exists()


def test_reject_discards_and_says_so(project: Path) -> None:
    before = (project / "src/app.py").read_bytes()
    patch = make_patch(project, "src/app.py", 1, 1, "x = 1")
    assert reject_patch(patch) == (
        f"The user rejected patch {patch.id} for src/app.py; the file was not changed."
    )
    outcome = settle(project, patch, "reject")
    assert (outcome.decision, outcome.status) == ("reject", "rejected")
    assert (project / "src/app.py").read_bytes() == before


def test_insert_delete_and_append(tmp_path: Path) -> None:
    write(tmp_path, "f.txt", "a\nb\nc\n")
    assert make_patch(tmp_path, "f.txt", 2, 1, "new").new_content == "a\nnew\nb\nc\n"
    assert make_patch(tmp_path, "f.txt", 2, 3, "").new_content == "a\n"
    assert make_patch(tmp_path, "f.txt", 4, 3, "d\ne").new_content == "a\nb\nc\nd\ne\n"


def test_line_endings_and_missing_final_newline_are_kept(tmp_path: Path) -> None:
    write(tmp_path, "win.txt", "one\r\ntwo\r\n")
    assert make_patch(tmp_path, "win.txt", 2, 2, "TWO\nTHREE").new_content == (
        "one\r\nTWO\r\nTHREE\r\n"
    )
    write(tmp_path, "bare.txt", "one\ntwo")
    assert make_patch(tmp_path, "bare.txt", 2, 2, "TWO").new_content == "one\nTWO"
    assert make_patch(tmp_path, "bare.txt", 3, 2, "three").new_content == "one\ntwo\nthree"


def test_a_new_file_is_created_only_if_it_still_does_not_exist(tmp_path: Path) -> None:
    patch = make_patch(tmp_path, "pkg/new.py", 1, 0, "VALUE = 1\n")
    assert patch.base_sha256 is None
    assert patch.diff.startswith("--- /dev/null\n+++ b/pkg/new.py\n")
    assert not (tmp_path / "pkg").exists()
    assert apply_patch(tmp_path, patch).startswith("Created pkg/new.py")
    assert (tmp_path / "pkg/new.py").read_text() == "VALUE = 1\n"

    second = make_patch(tmp_path, "other.py", 1, 0, "A = 1\n")
    write(tmp_path, "other.py", "B = 2\n")
    with pytest.raises(PatchConflict, match="now exists"):
        apply_patch(tmp_path, second)


@pytest.mark.parametrize(
    ("path", "start", "end", "content", "fragment"),
    [
        ("src/app.py", 0, 1, "x", "start_line 0 is outside 'src/app.py', which has 9 lines"),
        ("src/app.py", 3, 40, "x", "end_line 40 does not fit start_line 3"),
        ("src/app.py", 1, 1, '"""A tiny app."""', "nothing would change"),
        ("logo.png", 1, 1, "x", "binary file"),
        ("nope.py", 2, 3, "x", "to create it, use start_line=1 and end_line=0"),
        ("src", 1, 1, "x", "is a folder"),
    ],
)
def test_bad_proposals_are_sentences(
    project: Path, path: str, start: int, end: int, content: str, fragment: str
) -> None:
    with pytest.raises(ToolError) as caught:
        make_patch(project, path, start, end, content)
    assert fragment in caught.value.user_message
