"""Follow mode: stick to the bottom while streaming, stay put once the user scrolls up."""

from __future__ import annotations

from textual.pilot import Pilot

from weaver_tui.widgets.message_view import MessageItem, MessageView

from .conftest import SIZE, HostApp, drained, history, landed


async def _stream(view: MessageView, pilot: Pilot[None], lines: range) -> None:
    for i in lines:
        view.append_text("r", f"line {i} of the streamed reply\n\n")
    await drained(view, pilot)


async def test_follow_sticks_to_the_bottom_stops_on_scroll_up_and_resumes_with_end() -> None:
    app = HostApp(history(20))
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        await _stream(view, pilot, range(0, 40))
        assert view.following
        assert view.scroll_y == view.max_scroll_y
        assert "line 39 of the streamed reply" in view.visible_text()

        await pilot.press("pageup")
        await landed(view, pilot)
        assert not view.following
        held = view.scroll_y
        assert held < view.max_scroll_y
        await _stream(view, pilot, range(40, 80))
        assert view.scroll_y == held
        assert "line 79 of the streamed reply" not in view.visible_text()
        assert "jump to latest" in view.visible_text()[-1]

        await pilot.press("end")
        await drained(view, pilot)
        assert view.following
        assert view.scroll_y == view.max_scroll_y
        await _stream(view, pilot, range(80, 100))
        assert view.scroll_y == view.max_scroll_y
        assert "line 99 of the streamed reply" in view.visible_text()
        assert "jump to latest" not in view.visible_text()[-1]


async def test_scrolling_back_to_the_bottom_follows_again() -> None:
    app = HostApp(history(20))
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        await _stream(view, pilot, range(0, 10))
        await pilot.press("pageup")
        await landed(view, pilot)
        assert not view.following
        await pilot.press("pagedown", "pagedown")
        await landed(view, pilot)
        assert view.following
        await _stream(view, pilot, range(10, 30))
        assert "line 29 of the streamed reply" in view.visible_text()


async def test_the_scrollbar_thumb_sits_at_the_bottom_when_a_stream_first_overflows() -> None:
    """The scroll to the bottom happens in the same update that makes the view scrollable: the
    scrollbar must show it (Textual only moves a scrollbar that is already shown)."""
    app = HostApp([MessageItem(id="q", role="user", content="Tell me a long story.")])
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        await pilot.pause()
        assert not view.show_vertical_scrollbar
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "".join(f"paragraph {i} of the story\n\n" for i in range(60)))
        await drained(view, pilot)
        assert view.following
        assert view.scroll_y == view.max_scroll_y > 0
        assert view.show_vertical_scrollbar
        assert view.vertical_scrollbar.position == view.scroll_y


async def test_jumping_to_a_message_while_following_stops_following_at_once() -> None:
    """A jump takes effect when asked (not after the next frame): the view knows at once that
    it no longer sits at the bottom, so the stream's next render does not pull it back."""
    items = history(30)
    app = HostApp(items)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        await _stream(view, pilot, range(0, 20))
        assert view.following

        view.scroll_to_message(items[2].id)
        assert not view.following
        assert view.scroll_y < view.max_scroll_y
        await pilot.pause()
        shown = view.visible_text()[:-1]  # (the last line is the "jump to latest" overlay)
        await _stream(view, pilot, range(20, 40))
        assert view.visible_text()[:-1] == shown  # what the user looks at stays put
        assert not view.following

        view.action_scroll_home()
        assert view.scroll_y == 0
        assert not view.following


async def test_an_animated_scroll_whose_last_step_reaches_the_bottom_lands_and_follows() -> None:
    """An animated scroll (Page Down, the scrollbar, the mouse wheel) whose last step is the
    first to reach the bottom: follow mode comes back without stopping the animation from
    inside the animator's step (Textual then fails removing it, and the app dies)."""
    app = HostApp(history(20))
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        await _stream(view, pilot, range(0, 10))
        await pilot.press("pageup")
        await landed(view, pilot)
        assert not view.following
        bottom = view.max_scroll_y

        view.animate(
            "scroll_y",
            bottom,
            duration=0.2,
            easing=lambda t: 1.0 if t >= 1 else 0.0,  # the last step moves it all
            level="basic",  # as Textual scrolls
        )
        await landed(view, pilot)
        assert view.following
        assert view.scroll_y == view.max_scroll_y
        await _stream(view, pilot, range(10, 30))
        assert "line 29 of the streamed reply" in view.visible_text()
