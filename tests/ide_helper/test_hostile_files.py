"""Hostile file-system shapes in a project: a folder swapped for a link while we read, hard
links to outside files, pipes, huge sparse files, ``/proc``, link loops, a differently cased
``.git``, and more files than the listing holds. Each is refused or bounded, with a sentence."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from agents.errors import ToolError
from agents.patch_review.patches import apply_patch, make_patch
from agents.profiles.ide_helper import project_files
from agents.profiles.ide_helper.reading import _take_lines, list_project_files, read_text_file
from agents.profiles.ide_helper.search import format_search, search_project
from tests.ide_helper.conftest import write

SECRET = "outside-secret-words"


def _swap_forever(folder: Path, outside: Path, stop: threading.Event) -> None:
    """Swap ``folder`` between the real folder and a link to ``outside`` until ``stop``."""
    real = folder.with_name(folder.name + "_real")
    link = folder.with_name(folder.name + "_link")
    link.symlink_to(outside, target_is_directory=True)
    while not stop.is_set():
        os.rename(folder, real)
        os.rename(link, folder)  # the folder is a link out of the project now
        os.rename(folder, link)
        os.rename(real, folder)


def test_a_folder_swapped_for_a_link_while_reading_never_leaks_outside_content(
    tmp_path: Path,
) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    write(outside, "notes.txt", SECRET + "\n")
    write(root, "docs/notes.txt", "inside words\n")
    stop = threading.Event()
    swapper = threading.Thread(target=_swap_forever, args=(root / "docs", outside, stop))
    swapper.start()
    answers = []
    try:
        for _ in range(2000):
            try:
                answers.append(read_text_file(root, "docs/notes.txt"))
            except ToolError as refused:
                answers.append(refused.user_message)
    finally:
        stop.set()
        swapper.join()
    assert not [answer for answer in answers if SECRET in answer]
    assert any("inside words" in answer for answer in answers)


def test_a_hard_link_to_an_outside_file_is_refused_and_not_searched(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    secret = write(outside, "id_rsa", SECRET + "\n")
    write(root, "src/app.py", "print('hello')\n")
    os.link(secret, root / "src" / "key.txt")
    with pytest.raises(ToolError, match="hard links") as refused:
        read_text_file(root, "src/key.txt")
    assert SECRET not in refused.value.user_message
    result = search_project(root, SECRET)
    assert result.total == 0
    assert "1 file with several hard links skipped" in format_search(SECRET, result)


def test_a_named_pipe_is_neither_read_nor_edited_nor_replaced(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "print('hello')\n")
    os.mkfifo(root / "src" / "pipe")
    with pytest.raises(ToolError):
        read_text_file(root, "src/pipe")
    with pytest.raises(ToolError, match="not a regular file"):
        make_patch(root, "src/pipe", 1, 0, "text\n")
    assert (root / "src" / "pipe").is_fifo()


def test_a_huge_sparse_file_is_read_in_bounded_time_and_memory(tmp_path: Path) -> None:
    root = tmp_path / "project"
    big = write(root, "big.log", "".join(f"line {n}\n" for n in range(2000)))  # > 8 KiB
    with open(big, "r+b") as handle:
        handle.truncate(2 * 1024**3)  # then 2 GB of hole: one line of NUL bytes
    answer = read_text_file(root, "big.log", start_line=1995)
    assert "line 1999" in answer
    assert "of more than" in answer  # the count stopped; the file was not read through
    with pytest.raises(ToolError, match="too large"):
        make_patch(root, "big.log", 1, 1, "first\n")


def test_reading_stops_at_its_cap_without_reading_through_a_huge_last_line(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    big = write(root, "big.log", "".join(f"line {n}\n" for n in range(2000)))
    with open(big, "r+b") as handle:
        handle.truncate(2 * 1024**3)
    with open(big, "rb") as handle:
        lines, _cut = _take_lines(handle, 1995, None)
        assert lines[-1] == "line 1999"
        assert handle.tell() < big.stat().st_size // 100  # the 2 GB line was not read through


def test_proc_paths_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "print('hello')\n")
    (root / "env").symlink_to("/proc/self/environ")
    for path in ("/proc/self/environ", "env", "../../../../proc/self/environ"):
        with pytest.raises(ToolError):
            read_text_file(root, path)


def test_a_link_loop_ends_the_search_and_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "needle\n")
    (root / "loop").symlink_to(root / "loop")
    (root / "src" / "up").symlink_to(root, target_is_directory=True)
    with pytest.raises(ToolError):
        read_text_file(root, "loop/app.py")
    result = search_project(root, "needle")
    assert [path for path, _, _ in result.matches] == ["src/app.py"]


@pytest.mark.parametrize("folder", [".GIT", ".Git", ".gIt"])
def test_version_control_data_is_refused_whatever_its_case(tmp_path: Path, folder: str) -> None:
    root = tmp_path / "project"
    write(root, f"{folder}/config", "[credential]\n  helper = secret\n")
    with pytest.raises(ToolError, match="version-control"):
        read_text_file(root, f"{folder}/config")
    with pytest.raises(ToolError, match="version-control"):
        make_patch(root, f"{folder}/hooks/pre-commit", 1, 0, "#!/bin/sh\n")


def test_an_applied_patch_does_not_follow_a_folder_swapped_for_a_link(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    write(root, "src/app.py", "print('hello')\n")
    write(outside, "app.py", "print('hello')\n")
    patch = make_patch(root, "src/app.py", 1, 1, "print('changed')\n")
    os.rename(root / "src", root / "src_old")
    (root / "src").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ToolError):
        apply_patch(root, patch)
    assert (outside / "app.py").read_text() == "print('hello')\n"


def test_more_files_than_the_listing_holds_say_the_listing_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "project"
    for n in range(120):
        write(root, f"many/f{n:03}.txt", "needle\n")
    monkeypatch.setattr(project_files, "MAX_FILES", 50)
    assert "listing stopped early" in list_project_files(root, "many")
    result = search_project(root, "needle")
    assert result.files_searched <= 50
    assert "the file list stopped at 50 files" in format_search("needle", result)
