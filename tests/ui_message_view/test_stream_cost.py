"""What a streamed frame costs: only changed lines repainted, a bounded line cache, a render
budget that counts the frame a render causes, lexers built once."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.syntax import Syntax

import weaver_tui.widgets.message_view.viewport as viewport
from weaver_tui.widgets.message_view import MessageItem, MessageView, budget
from weaver_tui.widgets.message_view.budget import RenderBudget
from weaver_tui.widgets.message_view.rich_markdown import lexer_for

from .conftest import SIZE, HostApp, drained, landed


def _record_painted_lines(view: MessageView) -> list[int]:
    """Collect the widget lines Textual asks the view to draw from now on."""
    painted: list[int] = []
    original = view.render_line

    def render_line(y: int):  # type: ignore[no-untyped-def]
        painted.append(y)
        return original(y)

    view.render_line = render_line  # type: ignore[method-assign]
    return painted


async def test_a_tail_that_grows_within_its_line_repaints_only_from_that_block() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "# Title\n\nA first paragraph.\n\n- one\n- two\n\nThe tail")
        await drained(view, pilot)
        tail_line = next(y for y, text in enumerate(view.visible_text()) if "The tail" in text)
        painted = _record_painted_lines(view)

        view.append_text("r", " grows")  # the same line, a few more characters
        await drained(view, pilot)
        drawn = list(painted)  # (visible_text below draws every line itself)

        assert "The tail grows" in view.visible_text()[tail_line]
        assert drawn, "the change was never drawn"
        assert min(drawn) >= tail_line - 1  # the title and list above were not redrawn


async def test_a_stream_that_adds_lines_while_following_repaints_the_view() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "".join(f"para {i}\n\n" for i in range(40)))
        await drained(view, pilot)
        painted = _record_painted_lines(view)
        view.append_text("r", "".join(f"more {i}\n\n" for i in range(5)))
        await drained(view, pilot)
        drawn = set(painted)
        assert view.following
        assert view.scroll_y == view.max_scroll_y
        assert "more 4" in "\n".join(view.visible_text())
        assert set(range(SIZE[1] - 1)) <= drawn  # everything moved up: all redrawn


async def test_far_blocks_drop_their_lines_and_render_again_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(viewport, "EVICT_ABOVE_LINES", 60)
    monkeypatch.setattr(viewport, "KEEP_SCREENS", 1)
    text = "".join(f"## Part {i}\n\nSentence number {i} of a long reply.\n\n" for i in range(200))
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        for start in range(0, len(text), 400):
            view.append_text("r", text[start : start + 400])
            await pilot.pause(0.05)
        view.finish_message("r", "complete")
        await drained(view, pilot)
        lines = view.text_lines()  # renders every block: all heights are real now
        entry = view._layout.get("r")
        assert entry is not None
        assert entry.blocks is not None
        total, heights = view._layout.total, [block.height for block in entry.blocks]

        view.action_jump_to_latest()  # the next update finds far too many rendered lines
        await landed(view, pilot)
        rendered = [block for block in entry.blocks if block.strips is not None]
        assert 0 < len(rendered) < len(entry.blocks) // 4  # the far ones were dropped
        assert entry.blocks[0].strips is None
        assert entry.blocks[-1].strips is not None
        assert "Sentence number 199" in "\n".join(view.visible_text())

        view.scroll_to_message("r")  # back to the top: rendered again, in the same place
        await landed(view, pilot)
        assert view.visible_text()[1].strip().startswith("Part 0")
        assert entry.blocks[0].strips is not None
        assert view._layout.total == total
        assert [block.height for block in entry.blocks] == heights
        assert view.text_lines() == lines


def test_the_budget_counts_the_frame_and_stays_within_its_bounds() -> None:
    plan = RenderBudget()
    assert plan.gap == budget.FRAME_INTERVAL
    plan.rendered(0.0005)  # a cheap render: as often as the frame interval allows
    plan.painted(0.0005)
    assert plan.gap == budget.FRAME_INTERVAL
    for _ in range(12):  # an expensive frame counts PAINT_FACTOR times the view's own paint
        plan.rendered(0.002)
        plan.painted(0.010)
    expected = (0.002 + budget.PAINT_FACTOR * 0.010) / budget.SHARE
    assert plan.gap == pytest.approx(min(budget.MAX_GAP, expected), rel=0.1)
    for _ in range(8):
        plan.rendered(1.0)  # a stall: never slower than MAX_GAP
    assert plan.gap == budget.MAX_GAP


def test_a_fence_language_gets_one_shared_lexer_that_highlights_like_rich() -> None:
    lexer = lexer_for("python")
    assert lexer_for("python") is lexer
    assert lexer_for("no-such-language") == "no-such-language"
    code = "def f(x: int) -> int:\n    return x * 2\n"
    console = Console(width=60, force_terminal=True, color_system="truecolor")
    by_name = console.render_lines(Syntax(code, "python", theme="monokai"))
    shared = console.render_lines(Syntax(code, lexer, theme="monokai"))
    assert shared == by_name
