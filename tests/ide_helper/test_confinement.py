"""Every path the model names stays inside the project root, refused with a usable sentence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agents.patch_review.patches import make_patch
from agents.profiles.ide_helper.reading import list_project_files, read_text_file
from agents.profiles.ide_helper.search import search_project
from agents.project_paths import PathRefused, resolve_inside


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hi')\n")
    (tmp_path / "secret.txt").write_text("top secret\n")
    os.symlink(tmp_path / "secret.txt", root / "leak.txt")
    os.symlink(tmp_path, root / "up")
    os.symlink("loop_b", root / "loop_a")
    os.symlink("loop_a", root / "loop_b")
    os.symlink("src/app.py", root / "inside_link.py")
    return root


ADVERSARIAL = [
    "../",
    "../secret.txt",
    "/etc/passwd",
    "~",
    "~/.ssh/id_rsa",
    "~root",
    "a/../../b",
    "src/../../secret.txt",
    "..\\secret.txt",
    "src\\..\\..\\secret.txt",
    "C:\\Windows\\win.ini",
    "leak.txt",
    "up/secret.txt",
    "loop_a",
    "loop_a/x.py",
    "src/app.py\x00.txt",
    "a" * 5000,
    "src/" + "b" * 300 + ".py",
    "",
    "   ",
]


@pytest.mark.parametrize("user_path", ADVERSARIAL, ids=lambda p: repr(p[:30]))
def test_adversarial_paths_are_refused_with_a_sentence(root: Path, user_path: str) -> None:
    with pytest.raises(PathRefused) as caught:
        resolve_inside(root, user_path)
    message = caught.value.user_message
    assert message.endswith(".")
    assert "e.g. 'src/app.py'" in message
    assert "\x00" not in message
    assert len(message) < 300


def test_refusals_name_the_reason(root: Path) -> None:
    def reason(path: str) -> str:
        with pytest.raises(PathRefused) as caught:
            resolve_inside(root, path)
        return caught.value.user_message

    assert reason("../x") == (
        "Path '../x' is outside the project root; use a path relative to the project, "
        "e.g. 'src/app.py'."
    )
    assert "is absolute" in reason("/etc/passwd")
    assert "home folder" in reason("~root")
    assert "symbolic link" in reason("leak.txt")
    assert "loop" in reason("loop_a")
    assert "NUL byte" in reason("x\x00y")
    assert "5000 characters" in reason("a" * 5000)


@pytest.mark.parametrize(
    ("user_path", "expected"),
    [
        ("src/app.py", "src/app.py"),
        ("./src/app.py", "src/app.py"),
        ("src/../src/app.py", "src/app.py"),
        ("src\\app.py", "src/app.py"),
        (".", "."),
        ("inside_link.py", "src/app.py"),
        ("src/new_file.py", "src/new_file.py"),
    ],
)
def test_paths_inside_the_root_resolve_to_the_real_file(
    root: Path, user_path: str, expected: str
) -> None:
    resolved = resolve_inside(root, user_path)
    real_root = root.resolve()
    assert resolved == (real_root / expected).resolve() if expected != "." else real_root


def test_every_tool_refuses_an_escape(root: Path) -> None:
    for call in (
        lambda: read_text_file(root, "../secret.txt"),
        lambda: read_text_file(root, "leak.txt"),
        lambda: list_project_files(root, "up"),
        lambda: make_patch(root, "../secret.txt", 1, 1, "pwned"),
        lambda: make_patch(root, "leak.txt", 1, 1, "pwned"),
    ):
        with pytest.raises(PathRefused):
            call()
    assert (root.parent / "secret.txt").read_text() == "top secret\n"


def test_search_never_reads_through_a_link_that_leaves_the_root(root: Path) -> None:
    result = search_project(root.resolve(), "top secret")
    assert result.matches == []


@pytest.mark.parametrize("user_path", [".git/config", ".git", "sub/.git/HEAD"])
def test_version_control_internals_are_refused(git_project: Path, user_path: str) -> None:
    with pytest.raises(PathRefused, match="version-control data"):
        read_text_file(git_project, user_path)
    with pytest.raises(PathRefused, match="version-control data"):
        make_patch(git_project, user_path, 1, 0, "x")
    with pytest.raises(PathRefused, match="version-control data"):
        list_project_files(git_project, user_path)
