"""read_file: numbered lines, ranges, caps with a notice that names the next range, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.errors import ToolError
from agents.profiles.ide_helper import reading
from agents.profiles.ide_helper.reading import read_text_file
from tests.ide_helper.conftest import write


def test_whole_file_comes_back_numbered_with_a_header(project: Path) -> None:
    text = read_text_file(project, "src/app.py")
    lines = text.splitlines()
    assert lines[0] == "src/app.py (lines 1-9 of 9)"
    assert lines[1] == '1 | """A tiny app."""'
    assert lines[4] == "4 | def greet(name: str) -> str:"
    assert lines[5] == '5 |     return f"Hello, {name}!"'
    assert len(lines) == 10


def test_a_range_is_numbered_from_its_first_line(project: Path) -> None:
    text = read_text_file(project, "src/app.py", start_line=8, end_line=9)
    assert text.splitlines() == [
        "src/app.py (lines 8-9 of 9)",
        "8 | def farewell(name: str) -> str:",
        '9 |     return f"Goodbye, {name}!"',
    ]


def test_end_line_past_the_end_stops_at_the_last_line(project: Path) -> None:
    assert read_text_file(project, "src/app.py", 9, 500).splitlines()[0] == (
        "src/app.py (lines 9-9 of 9)"
    )


def test_long_file_is_cut_with_a_notice_naming_the_next_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "big.txt", "".join(f"line {n}\n" for n in range(1, 5001)))
    text = read_text_file(tmp_path, "big.txt")
    lines = text.splitlines()
    assert lines[0] == "big.txt (lines 1-2000 of 5000)"
    assert lines[2000] == "2000 | line 2000"
    assert lines[-1] == (
        "[truncated at 2,000 lines: showing lines 1-2000 of 5000; ask for lines 2001-4000 "
        "with start_line/end_line to read on]"
    )
    follow = read_text_file(tmp_path, "big.txt", 2001, 4000).splitlines()
    assert follow[0] == "big.txt (lines 2001-4000 of 5000)"
    assert follow[-1] == "4000 | line 4000"

    monkeypatch.setattr(reading, "MAX_READ_BYTES", 1000)
    cut = read_text_file(tmp_path, "big.txt").splitlines()
    assert cut[-1].startswith("[truncated at 1 KB: showing lines 1-")


def test_very_long_lines_are_shortened(tmp_path: Path) -> None:
    write(tmp_path, "min.js", "x" * 10_000 + "\n")
    text = read_text_file(tmp_path, "min.js")
    assert "[line cut at 2000 characters]" in text
    assert len(text) < 2200


def test_windows_line_endings_and_invalid_utf8_are_shown_as_text(tmp_path: Path) -> None:
    write(tmp_path, "crlf.txt", b"one\r\ntwo \xff\r\n")
    assert read_text_file(tmp_path, "crlf.txt").splitlines()[1:] == ["1 | one", "2 | two \ufffd"]


def test_empty_file_says_so(tmp_path: Path) -> None:
    write(tmp_path, "empty.py", "")
    assert read_text_file(tmp_path, "empty.py") == "empty.py is empty (0 lines)."


@pytest.mark.parametrize(
    ("path", "start", "end", "fragment"),
    [
        ("logo.png", None, None, "'logo.png' is a binary file"),
        ("missing.py", None, None, "There is no file 'missing.py'"),
        ("src", None, None, "'src' is a folder; use list_files"),
        ("src/app.py", 0, None, "start_line counts from 1"),
        ("src/app.py", 5, 2, "end_line (2) is before start_line (5)"),
        ("src/app.py", 50, None, "'src/app.py' has only 9 lines"),
    ],
)
def test_refusals_are_sentences(
    project: Path, path: str, start: int | None, end: int | None, fragment: str
) -> None:
    with pytest.raises(ToolError) as caught:
        read_text_file(project, path, start, end)
    assert fragment in caught.value.user_message
