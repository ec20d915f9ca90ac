"""list_files: the project's own files, with .git, virtualenvs, node_modules and ignored files
left out, in a git work tree (git decides) and in a plain folder (.gitignore via pathspec)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.errors import ToolError
from agents.profiles.ide_helper import reading
from agents.profiles.ide_helper.project_files import project_files
from agents.profiles.ide_helper.reading import glob_to_regex, list_project_files
from tests.ide_helper.conftest import write

EXPECTED = [
    ".gitignore",
    "README.md",
    "docs/guide.txt",
    "logo.png",
    "src/app.py",
    "src/util/strings.py",
]


def test_plain_folder_applies_gitignore_and_skips_clutter(project: Path) -> None:
    listing = project_files(project.resolve(), project.resolve())
    assert listing.source == "walk"
    assert listing.paths == EXPECTED


def test_git_work_tree_lists_tracked_and_untracked_but_not_ignored(git_project: Path) -> None:
    root = git_project.resolve()
    listing = project_files(root, root)
    assert listing.source == "git"
    assert listing.paths == sorted([*EXPECTED, "src/untracked.py"])


def test_git_listing_drops_files_deleted_from_the_work_tree(git_project: Path) -> None:
    (git_project / "docs" / "guide.txt").unlink()
    assert "docs/guide.txt" not in list_project_files(git_project)


def test_nested_gitignore_and_negation_in_a_plain_folder(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.tmp\n")
    write(tmp_path, "pkg/.gitignore", "!keep.tmp\ngenerated/\n")
    write(tmp_path, "pkg/a.tmp", "x")
    write(tmp_path, "pkg/keep.tmp", "x")
    write(tmp_path, "pkg/generated/out.py", "x")
    write(tmp_path, "pkg/mod.py", "x")
    write(tmp_path, "top.tmp", "x")
    assert project_files(tmp_path, tmp_path).paths == [
        ".gitignore",
        "pkg/.gitignore",
        "pkg/keep.tmp",
        "pkg/mod.py",
    ]


def test_output_has_a_count_header_and_relative_paths(git_project: Path) -> None:
    text = list_project_files(git_project, "src")
    assert text.splitlines() == [
        "3 files in src/:",
        "src/app.py",
        "src/untracked.py",
        "src/util/strings.py",
    ]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.py", ["src/app.py", "src/util/strings.py"]),
        ("strings.*", ["src/util/strings.py"]),
        ("src/**/*.py", ["src/app.py", "src/util/strings.py"]),
        ("src/*.py", ["src/app.py"]),
        ("*.[mt][dx]*", ["README.md", "docs/guide.txt"]),
        ("*.rs", []),
    ],
)
def test_glob_patterns(project: Path, pattern: str, expected: list[str]) -> None:
    text = list_project_files(project, ".", pattern)
    if expected:
        assert text.splitlines()[1:] == expected
        noun = "file" if len(expected) == 1 else "files"
        assert (
            text.splitlines()[0] == f"{len(expected)} {noun} matching '{pattern}' in the project:"
        )
    else:
        assert text.startswith("No files matching '*.rs' in the project")


def test_glob_translation() -> None:
    assert glob_to_regex("**/test_*.py").match("a/b/test_x.py")
    assert glob_to_regex("**/test_*.py").match("test_x.py")
    assert not glob_to_regex("*.py").match("a/b.py")
    assert glob_to_regex("[!a]*").match("b")


def test_long_listing_is_bounded_with_a_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(30):
        write(tmp_path, f"f{n:02}.txt", "x")
    monkeypatch.setattr(reading, "MAX_LISTED", 10)
    lines = list_project_files(tmp_path).splitlines()
    assert lines[0] == "30 files in the project:"
    assert lines[1:11] == [f"f{n:02}.txt" for n in range(10)]
    assert lines[11].startswith("... and 20 more not shown; narrow with directory= or pattern=")
    assert len(lines) == 12


def test_refusals(project: Path) -> None:
    with pytest.raises(ToolError, match="is a file, not a folder"):
        list_project_files(project, "README.md")
    with pytest.raises(ToolError, match="There is no folder 'nope'"):
        list_project_files(project, "nope")
    for skipped in ("node_modules", "env/lib", ".venv"):
        assert list_project_files(project, skipped).startswith(f"{skipped}/ is skipped: ")


def test_a_root_that_git_ignores_as_a_whole_is_walked(git_project: Path) -> None:
    scratch = git_project / "build"
    write(scratch, "notes.py", "x = 1\n")
    listing = project_files(scratch.resolve(), scratch.resolve())
    assert listing.source == "walk"
    assert "notes.py" in listing.paths
    assert "build/" not in list_project_files(git_project)
