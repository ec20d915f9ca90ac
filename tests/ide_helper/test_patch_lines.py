"""propose_edit edits the lines read_file shows, and only those, whatever characters the file
and the edit hold: a lone CR, form feed, NEL, U+2028/U+2029 are line content (not breaks), the
byte-order mark stays first, the file's own line ending is used, and the diff reads as written.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.errors import ToolError
from agents.patch_review.line_edit import BOM, line_ending_of, split_lines
from agents.patch_review.patches import Patch, apply_patch, make_patch
from agents.profiles.ide_helper.reading import read_text_file
from tests.ide_helper.conftest import write

# Characters str.splitlines breaks at but read_file does not, and the two endings.
TRICKY = ["\r", "\x0b", "\x0c", "\x1c", "\x1e", "\x85", "\u2028", "\u2029"]
_piece = st.sampled_from(["a", "b", " ", "\n", "\r\n", *TRICKY])
_text = st.lists(_piece, max_size=14).map("".join)
_content = st.lists(st.sampled_from(["x", "y", "\n", "\r\n", *TRICKY]), max_size=8).map("".join)

_NUMBERED = re.compile(r"^ *(\d+) \| (.*)$", re.DOTALL)


def shown_lines(root: Path, name: str) -> list[str]:
    """The lines read_file shows (numbered text after ``N | ``), in order."""
    body = read_text_file(root, name, None, None).split("\n", 1)
    if len(body) == 1:
        return []
    found = []
    for row in body[1].split("\n"):
        match = _NUMBERED.match(row)
        assert match is not None, row
        found.append(match.group(2))
    return found


def proposed(root: Path, start: int, end: int, content: str) -> Patch | None:
    """The patch for ``f.txt``; ``None`` when it would change nothing (the only refusal a
    range that fits may meet)."""
    try:
        return make_patch(root, "f.txt", start, end, content)
    except ToolError as err:
        refusal = err.user_message
    assert "nothing would change" in refusal
    return None


def body_of(text: str) -> str:
    return text.removeprefix(BOM)


@given(
    old=_text.filter(lambda t: t.strip("\n") != ""),
    bom=st.booleans(),
    content=_content,
    data=st.data(),
)
@settings(max_examples=150, deadline=None)
def test_the_edit_replaces_exactly_the_lines_read_file_shows(
    old: str, bom: bool, content: str, data: st.DataObject
) -> None:
    text = (BOM if bom else "") + old
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write(root, "f.txt", text)
        lines = split_lines(old)
        shown = shown_lines(root, "f.txt")
        assert shown == [line.rstrip("\r\n") for line in lines]
        count = len(lines)
        start = data.draw(st.integers(1, count + 1), "start")
        end = data.draw(st.integers(start - 1, count), "end")
        patch = proposed(root, start, end, content)
        if patch is None:
            return
        new = patch.new_content
        assert new.startswith(BOM) == bom
        new_lines = split_lines(body_of(new))
        kept_after = lines[end:]
        # the lines after the range, byte for byte
        assert new_lines[len(new_lines) - len(kept_after) :] == kept_after
        # the lines before it, byte for byte (a last line gains an ending when text follows)
        before = new_lines[: start - 1]
        assert [line.rstrip("\r\n") for line in before] == [
            line.rstrip("\r\n") for line in lines[: start - 1]
        ]
        assert before[: max(start - 2, 0)] == lines[: max(start - 2, 0)]
        # the new lines: the content's characters as written, split at "\n" only
        middle = new_lines[start - 1 : len(new_lines) - len(kept_after)]
        ending = line_ending_of(old)
        wanted = split_lines(content.replace("\r\n", "\n"))
        expected = "".join(line.removesuffix("\n") + ending for line in wanted)
        if not kept_after and not old.endswith("\n"):  # no final newline before: none after
            expected = expected.removesuffix(ending)
        assert "".join(middle) == expected
        apply_patch(root, patch)
        assert (root / "f.txt").read_bytes() == new.encode("utf-8")
        assert len(shown_lines(root, "f.txt")) == len(new_lines)


@given(old=_text, content=_content.filter(bool))
@settings(max_examples=100, deadline=None)
def test_the_diff_has_one_row_per_line_and_marks_a_missing_final_newline(
    old: str, content: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write(root, "f.txt", old)
        count = len(split_lines(old))
        patch = proposed(root, count + 1, count, content)
        if patch is None:
            return
        rows = [row for row in patch.diff.split("\n") if row]
        assert all(row[:1] in ("+", "-", " ", "\\", "@") for row in rows), rows
        added = sum(1 for row in rows[2:] if row.startswith("+"))
        removed = sum(1 for row in rows[2:] if row.startswith("-"))
        assert added - removed == len(split_lines(patch.new_content)) - count
        marked = patch.diff.endswith("\\ No newline at end of file\n")
        assert marked == (not patch.new_content.endswith("\n"))


def test_reported_files_with_line_like_characters(tmp_path: Path) -> None:
    """A form feed (C, Python), U+2028 in a JavaScript string, a lone CR and NEL are line
    content: line 2 is the line read_file shows as 2."""
    for data, changed in [
        (b"a = 1\n\x0c\nb = 2\n", b"a = 1\nX\nb = 2\n"),
        ("var s = 'x\u2028y';\nvar t = 2;\n".encode(), "var s = 'x\u2028y';\nX\n".encode()),
        (b"one\rtwo\nthree\n", b"one\rtwo\nX\n"),
        ("a\u0085b\nc\n".encode(), "a\u0085b\nX\n".encode()),
    ]:
        write(tmp_path, "f", data)
        patch = make_patch(tmp_path, "f", 2, 2, "X")
        assert patch.new_content.encode() == changed


def test_the_byte_order_mark_and_the_line_ending_are_the_files(tmp_path: Path) -> None:
    write(tmp_path, "bom.txt", b"\xef\xbb\xbfhello\r\nworld\r\n")
    patch = make_patch(tmp_path, "bom.txt", 1, 1, "HELLO")
    assert patch.new_content.encode() == b"\xef\xbb\xbfHELLO\r\nworld\r\n"
    write(tmp_path, "mixed.txt", b"a\nb\r\nc\n")  # mostly LF: the new line takes LF
    assert make_patch(tmp_path, "mixed.txt", 3, 3, "C").new_content == "a\nb\r\nC\n"
    write(tmp_path, "content.js", b"a\n")  # separators in the edit stay as written
    content = "var s = 'x\u2028y'; // \x0c ok\rz"
    assert make_patch(tmp_path, "content.js", 1, 1, content).new_content == content + "\n"
