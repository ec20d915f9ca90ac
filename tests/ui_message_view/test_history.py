"""Long paths: 2,000 messages open at once and only what is near the viewport is rendered."""

from __future__ import annotations

from weaver_tui.widgets.message_view import MessageView

from .conftest import SIZE, HostApp, history, landed


async def test_a_two_thousand_message_path_shows_the_last_messages_at_once() -> None:
    app = HostApp(history(2000))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        visible = "\n".join(view.visible_text())
        assert "print(1999)" in visible
        assert "Question number 1998?" in visible
        assert view.scroll_y == view.max_scroll_y
        # Only the blocks near the viewport were rendered: a few screens, not 2,000 messages.
        assert 0 < view.cached_block_count <= 40
        assert sum(entry.blocks is not None for entry in view._layout.entries) <= 25


async def test_jumping_into_history_renders_only_that_region_and_keeps_the_header_on_top() -> None:
    app = HostApp(history(2000))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        before = view.cached_block_count
        view.scroll_to_message("m1001")
        await pilot.pause()
        assert not view.following
        # Blocks above the header got their real heights: the header is still the top line.
        assert view.visible_text()[0].startswith("▌ assistant")
        assert "Answer 1001:" in view.visible_text()[1]
        assert view.cached_block_count - before <= 40

        await pilot.press("home")
        await landed(view, pilot)
        assert "Question number 0?" in view.visible_text()[1]
        assert view.cached_block_count - before <= 80


async def test_scrolling_up_line_by_line_keeps_the_content_in_place() -> None:
    app = HostApp(history(400))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        view.scroll_to_message("m201")
        await pilot.pause()
        for _ in range(30):
            top_before = view.visible_text()[:5]
            view.scroll_to(y=view.scroll_y - 1, animate=False)
            await pilot.pause()
            # One line up: what was on the first line is now on the second.
            assert view.visible_text()[1:6] == top_before
