"""The diff an ACP permission request shows is the change an accept makes: generated texts
(CRLF, a lone CR, a byte-order mark, no final newline), edited by hand after the proposal or
not, are shown from the text the patch was made from, byte for byte, to the patch's new text."""

from __future__ import annotations

import tempfile
from pathlib import Path

from acp.schema import FileEditToolCallContent
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.errors import ToolError
from agents.patch_review.patches import make_patch
from weaver_tui.core.acp_agent.patch_permission import review_request

_texts = st.lists(
    st.sampled_from(["a", "b", "\n", "\r\n", "\r", "\x0c", "\u2028", "\ufeff"]), max_size=12
).map("".join)


@given(text=_texts, edited=st.booleans())
@settings(max_examples=100, deadline=None)
def test_the_diff_is_from_the_text_the_patch_was_made_from(text: str, edited: bool) -> None:
    """Any text (CRLF, a lone CR, a byte-order mark, no final newline), edited by hand or not
    after the proposal: the diff's old text is the text proposed on, byte for byte."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "f.txt").write_bytes(text.encode())
        try:
            patch = make_patch(root, "f.txt", 1, 0, "new line")
        except ToolError:
            return
        if edited:
            (root / "f.txt").write_bytes(b"by hand\r\n")
        [shown] = review_request(root, patch, "c1").content or []
        assert isinstance(shown, FileEditToolCallContent)
        assert shown.old_text == text
        assert shown.new_text == patch.new_content


def test_the_file_shown_is_the_one_written_in_the_folder_the_patch_was_made_in(
    tmp_path: Path,
) -> None:
    """A review pending from another folder (the conversation's turn ran there) names that
    folder's file, where accepting it writes, not the session's."""
    made, session = tmp_path / "made", tmp_path / "session"
    for folder in (made, session):
        folder.mkdir()
        (folder / "f.txt").write_text("a\n")
    patch = make_patch(made, "f.txt", 1, 1, "b")
    [shown] = review_request(session, patch, "c1").content or []
    assert isinstance(shown, FileEditToolCallContent)
    assert shown.path == str((made / "f.txt").resolve())
