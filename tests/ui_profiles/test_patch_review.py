"""The patch review screen decides: accept checks the patch still applies (the resumed turn
writes it, where the outcome is recorded), reject and conflicts leave the file alone, Esc keeps
the review pending. The screen itself never writes a file."""

from __future__ import annotations

from pathlib import Path

from pygments.styles import get_style_by_name  # type: ignore[import-untyped]
from pygments.token import Generic  # type: ignore[import-untyped]
from textual.widgets import Static

from agents.patch_review.patches import Patch, make_patch
from tests.ui_profiles.conftest import APP_PY, SIZE, ScreenHost
from weaver_tui.screens.patch_review import (
    DARK_DIFF_THEME,
    LIGHT_DIFF_THEME,
    PatchDecision,
    PatchReviewScreen,
    diff_counts,
)


def host(patch: Patch, project: Path, theme: str = "weaver-dark") -> ScreenHost:
    return ScreenHost(lambda: PatchReviewScreen(patch, project), theme)


def app_py(project: Path) -> str:
    return (project / "src/app.py").read_text(encoding="utf-8")


async def test_accept_dismisses_accepted_and_writes_nothing_itself(
    project: Path, patch: Patch
) -> None:
    app = host(patch, project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = str(app.screen.query_one("#review-header", Static).render())
        assert "src/app.py" in header
        assert "+3" in header
        assert "-2" in header
        await pilot.press("a")
        await pilot.pause()
    [result] = app.results
    assert (result.decision, result.applied) == ("accept", True)
    assert "p-0a1b2c3d" in result.message
    assert result.resumes_turn
    assert app_py(project) == APP_PY  # the resumed turn applies it, and records that it did
    assert not any(p.name.endswith(".tmp") for p in (project / "src").iterdir())


async def test_reject_leaves_the_file_unchanged(project: Path, patch: Patch) -> None:
    for key in ("r", "x"):
        app = host(patch, project)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press(key)
            await pilot.pause()
        assert app.results == [
            PatchDecision(
                "reject",
                False,
                "You rejected patch p-0a1b2c3d for src/app.py; the file was not changed.",
            )
        ]
        assert app_py(project) == APP_PY


async def test_escape_decides_later_and_keeps_the_review_pending(
    project: Path, patch: Patch
) -> None:
    app = host(patch, project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [PatchDecision("later", False, "")]
    assert not app.results[0].resumes_turn
    assert app_py(project) == APP_PY


async def test_conflict_shows_the_sentence_and_leaves_the_edited_file_alone(
    project: Path, patch: Patch
) -> None:
    edited = APP_PY.replace("Goodbye", "See you")
    (project / "src/app.py").write_text(edited, encoding="utf-8")
    app = host(patch, project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PatchReviewScreen)
        error = screen.query_one("#review-error", Static)
        assert error.display
        sentence = str(error.render())
        assert sentence == (
            "src/app.py has changed since patch p-0a1b2c3d was proposed, so it was not "
            "applied; read the file again and propose a new edit."
        )
        assert app.results == []
        keys = {b.binding.key: b.binding.description for b in screen.active_bindings.values()}
        assert keys["a"] == "Try again"
        assert keys["c"] == "Close, tell the model"
        # Put the old content back: trying again now accepts the patch.
        (project / "src/app.py").write_text(APP_PY, encoding="utf-8")
        await pilot.press("a")
        await pilot.pause()
    assert [r.applied for r in app.results] == [True]
    assert app_py(project) == APP_PY


async def test_after_a_conflict_the_user_can_reject_or_tell_the_model(
    project: Path, patch: Patch
) -> None:
    edited = APP_PY.replace("Goodbye", "See you")
    (project / "src/app.py").write_text(edited, encoding="utf-8")
    for key, decision in (("r", "reject"), ("c", "accept")):
        app = host(patch, project)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("c")  # nothing to report yet: no effect
            await pilot.pause()
            assert app.results == []
            await pilot.press("a", key)
            await pilot.pause()
        [result] = app.results
        assert (result.decision, result.applied) == (decision, False)
        assert result.resumes_turn
        assert ("has changed since" in result.message) == (decision == "accept")
        assert app_py(project) == edited


async def test_accepting_a_new_file_creates_nothing_yet(project: Path) -> None:
    patch = make_patch(project, "docs/notes.md", 1, 0, "# Notes\n\nFirst line.\n")
    app = host(patch, project)
    async with app.run_test(size=SIZE) as pilot:
        header = str(app.screen.query_one("#review-header", Static).render())
        assert "new file" in header
        assert "+3 -0" in header
        await pilot.press("a")
        await pilot.pause()
    assert app.results[0].applied
    assert not (project / "docs/notes.md").exists()


async def test_a_file_replaced_by_a_folder_is_a_conflict_not_a_crash(
    project: Path, patch: Patch
) -> None:
    (project / "src/app.py").unlink()
    (project / "src/app.py").mkdir()
    app = host(patch, project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        error = str(app.screen.query_one("#review-error", Static).render())
        assert "could not be applied" in error
        assert "src/app.py" in error
    assert app.results == []


def inserted_colour(style: str) -> str:
    """What the Pygments style itself says an inserted line looks like."""
    return str(get_style_by_name(style).styles[Generic.Inserted].split()[-1].lower())


def added_line_colour(app: ScreenHost) -> str:
    """The foreground colour of the first added line of the rendered diff."""
    text = app.screen.query_one("#review-diff-text", Static)
    for y in range(text.size.height):
        strip = text.render_line(y)
        if strip.text.startswith("+") and not strip.text.startswith("+++"):
            colours = {s.style.color for s in strip if s.style and s.style.color}
            assert len(colours) == 1
            return colours.pop().name
    raise AssertionError("no added line on screen")


async def test_the_diff_colours_follow_the_theme(project: Path, patch: Patch) -> None:
    app = host(patch, project, theme="weaver-light")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        light = added_line_colour(app)
        app.theme = "weaver-dark"
        await pilot.pause()
        dark = added_line_colour(app)
    assert (light, dark) == (inserted_colour(LIGHT_DIFF_THEME), inserted_colour(DARK_DIFF_THEME))
    assert light != dark


def test_diff_counts_skip_the_file_headers(patch: Patch) -> None:
    assert diff_counts(patch.diff) == (3, 2)
    assert patch.counts == "+3 -2"


async def test_a_write_that_fails_is_a_sentence_not_a_traceback(project: Path) -> None:
    patch = make_patch(project, "docs/notes.md", 1, 0, "# Notes\n")
    (project / "docs").write_text("a file where the folder should be\n", encoding="utf-8")
    app = host(patch, project)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        sentence = str(app.screen.query_one("#review-error", Static).render())
        assert sentence.startswith(f"Patch {patch.id} could not be applied: ")
        await pilot.press("c")
        await pilot.pause()
    [result] = app.results
    assert (result.decision, result.applied, result.message) == ("accept", False, sentence)
    assert (project / "docs").read_text(encoding="utf-8").startswith("a file where")
