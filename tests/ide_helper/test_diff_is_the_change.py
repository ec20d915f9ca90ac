"""The diff a review shows is the change an accept writes: for generated files and edits (CRLF,
a lone CR, a form feed, U+2028, a byte-order mark, no final newline, new files), applying the
diff's hunks to the text the patch was made from gives the patch's new text exactly."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.errors import ToolError
from agents.patch_review.line_edit import split_lines
from agents.patch_review.patches import make_patch

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_piece = st.sampled_from(["a", "b", " ", "\n", "\r\n", "\r", "\x0c", "\u2028"])
_text = st.lists(_piece, max_size=16).map("".join)


def apply_diff(old: str, diff: str) -> str:
    """``old`` with the unified diff applied (rows are split at "\\n" only, like the diff)."""
    rows = split_lines(diff)[2:]  # past the --- and +++ lines
    old_lines = split_lines(old)
    out: list[str] = []
    at = 0
    index = 0
    while index < len(rows):
        match = _HUNK.match(rows[index])
        assert match is not None, rows[index]
        start = int(match[1]) - (0 if match[2] == "0" else 1)
        out += old_lines[at:start]
        at = start
        index += 1
        while index < len(rows) and not rows[index].startswith("@@"):
            row = rows[index]
            body = row[1:]
            if index + 1 < len(rows) and rows[index + 1].startswith("\\"):
                body = body.removesuffix("\n")  # "\ No newline at end of file" follows
            if row[0] == " ":
                assert old_lines[at] == body
                out.append(body)
                at += 1
            elif row[0] == "-":
                assert old_lines[at] == body
                at += 1
            elif row[0] == "+":
                out.append(body)
            index += 1
    return "".join(out + old_lines[at:])


@given(old=_text, new_file=st.booleans(), content=_text, data=st.data())
@settings(max_examples=200, deadline=None)
def test_the_diff_applied_to_the_old_text_is_the_new_text(
    old: str, new_file: bool, content: str, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if not new_file:
            (root / "f.txt").write_bytes(("\ufeff" + old).encode())
        count = 0 if new_file else len(split_lines(old))
        start = 1 if new_file else data.draw(st.integers(1, count + 1))
        end = 0 if new_file else data.draw(st.integers(start - 1, count))
        try:
            patch = make_patch(root, "f.txt", start, end, content)
        except ToolError:
            return
        base = "" if new_file else "\ufeff" + old
        assert apply_diff(base, patch.diff) == patch.new_content
