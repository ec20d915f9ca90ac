"""search_code: file:line: text matches over the project's text files, bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.errors import ToolError
from agents.profiles.ide_helper import search
from agents.profiles.ide_helper.search import format_search, search_project
from tests.ide_helper.conftest import write

GREET_LINES = [
    "README.md:3: Say hello with greet().",
    "docs/guide.txt:1: Call greet to say hello.",
    "src/app.py:4: def greet(name: str) -> str:",
    "src/util/strings.py:2: return text.upper()  # greet loudly",
]


@pytest.mark.parametrize("fixture", ["project", "git_project"])
def test_matches_skip_ignored_binary_and_vendored_files(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    root: Path = request.getfixturevalue(fixture)
    text = format_search("greet", search_project(root, "greet"))
    lines = text.splitlines()
    expected = list(GREET_LINES)
    if fixture == "git_project":
        expected.insert(3, "src/untracked.py:1: def greet_later():")
    assert lines[: len(expected)] == expected
    assert lines[-1].startswith(f"{len(expected)} matching lines in {len(expected)} files (")


def test_smart_case(project: Path) -> None:
    assert search_project(project, "GREET").total == 0
    assert search_project(project, "greet").total == 4
    assert search_project(project, "Hello").total == 1
    assert search_project(project, "hello").total == 3


def test_regex_mode_uses_python_syntax(project: Path) -> None:
    result = search_project(project, r"^def \w+\(name", regex=True)
    assert [(p, n) for p, n, _ in result.matches] == [("src/app.py", 4), ("src/app.py", 8)]
    assert search_project(project, 'f"Hello', regex=False).total == 1
    with pytest.raises(ToolError, match="invalid"):
        search_project(project, "def (", regex=True)


def test_one_match_per_line_and_bounded_output(tmp_path: Path) -> None:
    write(tmp_path, "many.py", "".join(f"x = 'needle needle {n}'\n" for n in range(300)))
    result = search_project(tmp_path, "needle", max_results=5)
    assert result.total == 300
    assert [n for _, n, _ in result.matches] == [1, 2, 3, 4, 5]
    footer = format_search("needle", result).splitlines()[-1]
    assert footer == (
        "300 matching lines in 1 file (1 file searched); showing the first 5. Narrow the "
        "query, or raise max_results (up to 200)."
    )
    assert len(search_project(tmp_path, "needle", max_results=10_000).matches) == 200


def test_large_files_are_skipped_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "MAX_FILE_BYTES", 100)
    write(tmp_path, "big.txt", "needle\n" * 50)
    write(tmp_path, "small.txt", "needle\n")
    result = search_project(tmp_path, "needle")
    assert result.total == 1
    assert result.skipped_large == 1
    assert "1 file over" in format_search("needle", result)


def test_no_match_and_bad_queries(project: Path) -> None:
    assert format_search("zebra", search_project(project, "zebra")).startswith(
        "No matches for 'zebra' in "
    )
    with pytest.raises(ToolError, match="empty"):
        search_project(project, "")
    with pytest.raises(ToolError, match="one line at a time"):
        search_project(project, "a\nb")


def test_symlink_inside_the_root_is_searched(tmp_path: Path) -> None:
    write(tmp_path, "real.py", "needle = 1\n")
    (tmp_path / "alias.py").symlink_to("real.py")
    assert sorted(p for p, _, _ in search_project(tmp_path, "needle").matches) == [
        "alias.py",
        "real.py",
    ]
