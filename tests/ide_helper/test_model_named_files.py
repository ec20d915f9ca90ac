"""Every file the app reads or writes in the project on a model's behalf, after a check made
earlier (an artifact saved once the user confirms, the current text of a patched file shown to
an ACP editor), is reached through :mod:`agents.confined_files`: whatever the project became
between the check and the use (a folder or the file swapped for a link out, a pipe, a hard link
to a file outside, a ``..`` in the name), nothing outside the project is written or read, the
call returns at once, and a refusal is one sentence. Generated layouts, real files, pipes and
links."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.patch_review.patches import Patch
from weaver_tui.core.acp_agent.patch_permission import current_text
from weaver_tui.core.artifacts import ArtifactError, plan_saves, save

SECRET = "outside the project\n"
CHANGES = ["folder becomes a link out", "file becomes a link out", "file becomes a pipe",
           "file becomes a hard link out", "nothing"]  # fmt: skip
names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)


def _layout(base: Path) -> tuple[Path, Path]:
    root, outside = base / "project", base / "outside"
    shutil.rmtree(base, ignore_errors=True)
    root.mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    return root, outside


def _change(root: Path, outside: Path, folders: list[str], name: str, change: str) -> None:
    folder = root.joinpath(*folders)
    target = folder / name
    if change == "folder becomes a link out":
        top = root / folders[0]
        shutil.rmtree(top)
        top.symlink_to(outside, target_is_directory=True)
    elif change == "file becomes a link out":
        target.unlink(missing_ok=True)
        target.symlink_to(outside / "secret.txt")
    elif change == "file becomes a pipe":
        target.unlink(missing_ok=True)
        os.mkfifo(target)
    elif change == "file becomes a hard link out":
        target.unlink(missing_ok=True)
        os.link(outside / "secret.txt", target)


def _outside(outside: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in outside.iterdir() if p.is_file()}


def _returns(call: Any) -> Any:
    """``call()``'s result; the test fails (instead of hanging) if it never returns."""
    result: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as exc:  # noqa: BLE001 (re-raised in the test's thread)
            failed.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)  # a bound against a hang, never the condition tested
    if failed:
        raise failed[0]
    assert result, "the call blocked (a pipe read?)"
    return result[0]


settings_ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@settings_
@given(folders=st.lists(names, min_size=1, max_size=3), name=names, exists=st.booleans(),
       change=st.sampled_from(CHANGES))  # fmt: skip
def test_a_saved_artifact_never_leaves_the_project(
    tmp_path: Path, folders: list[str], name: str, exists: bool, change: str
) -> None:
    root, outside = _layout(tmp_path / "case")
    folder = root.joinpath(*folders)
    folder.mkdir(parents=True)
    if exists:
        (folder / f"{name}.py").write_text("old\n")
    planned = plan_saves(root, [{"name": f"{name}.py", "folder": "/".join(folders), "text": "new"}])
    _change(root, outside, folders, f"{name}.py", change)
    refusal = ""
    try:
        _returns(lambda: save(planned))
    except ArtifactError as exc:
        refusal = str(exc)
    if refusal:
        assert "\n" not in refusal
        assert refusal.endswith(".")
    else:
        assert change in ("nothing", "file becomes a hard link out")
        assert (folder / f"{name}.py").read_text() == "new\n"
    assert _outside(outside) == {"secret.txt": SECRET.encode()}


@settings_
@given(folders=st.lists(names, max_size=3), name=names, change=st.sampled_from(CHANGES),
       dotted=st.booleans())  # fmt: skip
def test_an_acp_diff_never_shows_a_file_outside(
    tmp_path: Path, folders: list[str], name: str, change: str, dotted: bool
) -> None:
    root, outside = _layout(tmp_path / "case")
    root.joinpath(*folders).mkdir(parents=True, exist_ok=True)
    (root.joinpath(*folders) / name).write_text("inside\n")
    if folders:
        _change(root, outside, folders, name, change)
    elif change != "folder becomes a link out":
        _change(root, outside, ["."], name, change)
    path = "/".join([*folders, name]) if not dotted else "../outside/secret.txt"
    patch = Patch("p1", path, None, "new\n", "", 1, 1)
    shown = _returns(lambda: current_text(root, patch))
    assert shown in (None, "inside\n")
    if change == "nothing" and not dotted:
        assert shown == "inside\n"


def test_a_folder_swapped_for_a_link_after_the_question_is_refused(tmp_path: Path) -> None:
    root, outside = _layout(tmp_path / "case")
    (root / "atoms").mkdir()
    planned = plan_saves(root, [{"name": "code_atom.py", "folder": "atoms", "text": "x = 1"}])
    _change(root, outside, ["atoms"], "code_atom.py", "folder becomes a link out")
    with pytest.raises(ArtifactError, match="cannot be used"):
        save(planned)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
