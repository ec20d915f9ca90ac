"""Device files and very long paths given to ide-helper's file tools: refused with one short
sentence (never read, never waited on), and the rest of the project still read and searched."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from agents.errors import ToolError
from agents.profiles.ide_helper.reading import list_project_files, read_text_file
from agents.profiles.ide_helper.search import format_search, search_project
from tests.ide_helper.conftest import write

DEVICES = ("/dev/zero", "/dev/urandom", "/dev/null")


def _one_short_sentence(text: str) -> None:
    assert "\n" not in text
    assert len(text) < 300, text


@pytest.mark.parametrize("device", DEVICES)
def test_a_device_named_or_linked_is_refused(tmp_path: Path, device: str) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "needle = 1\n")
    (root / "src" / "dev").symlink_to(device)
    depth = len(root.parts)
    for path in (device, "src/dev", "../" * depth + device.lstrip("/")):
        with pytest.raises(ToolError) as refused:
            read_text_file(root, path)
        _one_short_sentence(refused.value.user_message)
    assert [path for path, _, _ in search_project(root, "needle").matches] == ["src/app.py"]


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_node_inside_the_project_is_refused_and_not_searched(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "needle = 1\n")
    os.mknod(root / "src" / "zero.py", 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero
    with pytest.raises(ToolError, match="not a regular file") as refused:
        read_text_file(root, "src/zero.py")
    _one_short_sentence(refused.value.user_message)
    assert [path for path, _, _ in search_project(root, "needle").matches] == ["src/app.py"]


def test_very_long_paths_are_refused_in_one_short_sentence(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "print('hello')\n")
    name = "d" * 250
    folder = root
    for _ in range(3):
        folder = folder / name
        folder.mkdir(parents=True)
    for path in (
        "n" * 256,
        "a/" * 600 + "x.py",
        "/".join([name] * 17) + "/x.py",
        "/".join([name] * 3),
    ):
        with pytest.raises(ToolError) as refused:
            read_text_file(root, path)
        _one_short_sentence(refused.value.user_message)
    assert "print('hello')" in read_text_file(root, "src/app.py")


def test_a_folder_deeper_than_path_max_is_left_out_of_listings_and_searches_saying_so(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    write(root, "src/app.py", "needle = 1\n")
    folder = os.open(root, os.O_RDONLY)
    try:
        for _ in range(17):  # 17 names of 250 characters: past PATH_MAX (4,096 bytes)
            os.mkdir("d" * 250, dir_fd=folder)
            deeper = os.open("d" * 250, os.O_RDONLY, dir_fd=folder)
            os.close(folder)
            folder = deeper
        deep_file = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=folder)
        os.write(deep_file, b"needle = 2\n")
        os.close(deep_file)
    finally:
        os.close(folder)

    listing = list_project_files(root)
    searched = format_search("needle", search_project(root, "needle"))

    assert "src/app.py" in listing
    assert "1 folder could not be opened" in listing
    assert "src/app.py" in searched
    assert "1 folder could not be opened" in searched
