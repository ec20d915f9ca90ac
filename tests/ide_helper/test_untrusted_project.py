"""A project folder is untrusted: its git config names no program git runs, a folder linked out
of the root is never read, a named pipe never blocks a search, a hostile pattern cannot hang."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from agents.profiles.ide_helper import search
from agents.profiles.ide_helper.project_files import project_files
from agents.profiles.ide_helper.search import format_search, search_project
from tests.ide_helper.conftest import write

T = TypeVar("T")

BOUND_S = 30


def _bounded(call: Callable[..., T], *args: object) -> T:
    """``call(*args)``, or a test failure when it does not return in BOUND_S (a hang)."""
    box: dict[str, T] = {}
    thread = threading.Thread(target=lambda: box.setdefault("value", call(*args)), daemon=True)
    thread.start()
    thread.join(BOUND_S)
    if thread.is_alive():
        pytest.fail(f"{call.__name__} did not return within {BOUND_S} s")
    return box["value"]


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "fsmonitor-ran"


def test_git_runs_no_program_the_repository_names(git_project: Path, marker: Path) -> None:
    hook = git_project.parent / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    hook.chmod(0o755)
    subprocess.run(["git", "config", "core.fsmonitor", str(hook)], cwd=git_project, check=True)
    subprocess.run(["git", "config", "core.pager", f"touch {marker}"], cwd=git_project, check=True)

    listing = project_files(git_project, git_project)
    assert listing.source == "git"
    assert "src/app.py" in listing.paths
    assert search_project(git_project, "greet").total > 0
    assert not marker.exists()


def test_a_folder_linked_out_of_the_root_is_never_searched(
    git_project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    write(outside, "secret.py", "greet = 'the outside secret'\n")
    # git lists src/util/strings.py; the folder now leads elsewhere.
    shutil.rmtree(git_project / "src" / "util")
    (git_project / "src" / "util").symlink_to(outside, target_is_directory=True)
    write(outside, "strings.py", "def greet(): 'the outside secret'\n")

    result = search_project(git_project, "outside secre[t]", regex=True)  # read every file
    assert result.total == 0
    assert result.skipped_outside >= 1
    assert "skipped 1 path that leads outside the project" in format_search("x", result)


def test_a_named_pipe_is_skipped_and_the_search_ends(project: Path) -> None:
    os.mkfifo(project / "src" / "pipe.py")
    result = _bounded(search_project, project, "greet")
    assert result.total > 0
    assert result.skipped_special == 1
    assert "not a regular file" in format_search("greet", result)


def test_a_catastrophic_pattern_ends(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pattern backtracks until the search's time limit: a short limit shows it ends as
    # well as the real one, which must itself end well within the bound against a hang.
    assert search.SEARCH_SECONDS < BOUND_S
    monkeypatch.setattr(search, "SEARCH_SECONDS", 0.5)
    write(project, "src/aaa.txt", "a" * 5000 + "b\n")
    result = _bounded(search_project, project, "(a+)+$", 50, True)
    assert not result.timed_out or "stopped after" in format_search("(a+)+$", result)


def test_a_search_stops_at_its_time_limit_and_says_so(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "SEARCH_SECONDS", 0.0)
    result = search_project(project, "gr(e)+t", regex=True)
    assert result.timed_out
    assert "the search stopped after 0 s" in format_search("gr(e)+t", result)
