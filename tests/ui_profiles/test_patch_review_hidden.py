"""A patch cannot hide code from its reviewer: a bidi override or an invisible character in
the new text shows in the review as ``<U+XXXX>``."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from agents.patch_review.patches import make_patch
from tests.ui_profiles.conftest import SIZE, ScreenHost
from weaver_tui.screens.patch_review import PatchReviewScreen


async def test_the_review_shows_a_bidi_override_and_a_zero_width_space(project: Path) -> None:
    hidden = 'access = "user\u202e \u2066// admin\u2069 \u2066"\nname = "ad\u200bmin"\n'
    patch = make_patch(project, "src/check.py", 1, 0, hidden)
    app = ScreenHost(lambda: PatchReviewScreen(patch, project), "weaver-dark")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = app.screen.query_one("#review-diff-text", Static)
        shown = "\n".join(text.render_line(y).text for y in range(text.size.height))
    assert "<U+202E>" in shown
    assert "<U+2066>" in shown
    assert "<U+200B>" in shown
    assert "\u202e" not in shown


async def test_the_review_names_controls_and_look_alike_spaces(project: Path) -> None:
    """What the review strips to keep the terminal safe the patch would still write: an
    escape sequence, a backspace, a lone CR, a no-break space and a line separator are each
    shown as ``<U+XXXX>``, in the text and in the file's name."""
    hidden = "ok = 1\x1b[8m; run()\x08\x08\nx\r= 2\u00a0# a\u2028b\n"
    patch = make_patch(project, "src/we\x1bird.py", 1, 0, hidden)
    app = ScreenHost(lambda: PatchReviewScreen(patch, project), "weaver-dark")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = "\n".join(
            static.render_line(y).text
            for static in app.screen.query(Static)
            for y in range(static.size.height)
        )
    for code in ("001B", "0008", "000D", "00A0", "2028"):
        assert f"<U+{code}>" in shown, code
    assert "src/we<U+001B>ird.py" in shown


async def test_a_tab_traded_for_spaces_shows_in_the_review(project: Path) -> None:
    """A Makefile recipe's tab replaced by four spaces (which breaks it) reads differently in
    the removed and the added row."""
    (project / "Makefile").write_text("all:\n\tcc main.c\n")
    patch = make_patch(project, "Makefile", 2, 2, "    cc main.c")
    app = ScreenHost(lambda: PatchReviewScreen(patch, project), "weaver-dark")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = app.screen.query_one("#review-diff-text", Static)
        rows = [text.render_line(y).text.rstrip() for y in range(text.size.height)]
    removed = next(row for row in rows if row.startswith("-") and "cc main.c" in row)
    added = next(row for row in rows if row.startswith("+") and "cc main.c" in row)
    assert removed[1:] != added[1:]
    assert "\u2192" in removed


async def test_a_patch_made_in_another_folder_names_that_folder(
    project: Path, tmp_path: Path
) -> None:
    """The review of a patch made in another folder than the app's project shows the file's
    full path there, where accepting it writes."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "f.txt").write_text("a\n")
    patch = make_patch(elsewhere, "f.txt", 1, 1, "b")
    app = ScreenHost(lambda: PatchReviewScreen(patch, project), "weaver-dark")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = str(app.screen.query_one("#review-header", Static).render())
    assert str(elsewhere / "f.txt") in header
