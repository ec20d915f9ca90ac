"""The view follows the app: theme colours (with weaver's role variables) and the width."""

from __future__ import annotations

from rich.color import Color as RichColor

from weaver_tui.widgets.message_view import MessageItem, MessageView

from .conftest import SIZE, HostApp

LONG = " ".join(f"word{i}" for i in range(120))
ITEMS = [
    MessageItem(id="u1", role="user", content=LONG),
    MessageItem(id="a1", role="assistant", content="Short reply."),
]


def _mark_colour(view: MessageView, index: int) -> RichColor | None:
    header = view._line_strip(view._layout.tops[index])
    assert header is not None
    mark = next(seg for seg in header if seg.text.startswith("▌"))
    assert mark.style is not None
    return mark.style.color


async def test_switching_theme_changes_the_header_colours() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        app.theme = "textual-dark"
        await pilot.pause()
        dark_user = _mark_colour(view, 0)
        app.theme = "weaver-test"
        await pilot.pause()
        # weaver themes carry role colours as theme variables.
        assert _mark_colour(view, 0) == RichColor.parse("#ff0000")
        assert _mark_colour(view, 1) == RichColor.parse("#00ff00")
        assert dark_user != _mark_colour(view, 0)
        app.theme = "textual-light"
        await pilot.pause()
        light_user = _mark_colour(view, 0)
        assert light_user not in (dark_user, RichColor.parse("#ff0000"))
        assert view._palette is not None
        assert view._palette.code_theme == "friendly"


async def test_resizing_rewraps_the_text() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        wide = [line for line in view.text_lines() if "word" in line]
        await pilot.resize_terminal(50, 30)
        await pilot.pause()
        narrow = [line for line in view.text_lines() if "word" in line]
        assert len(narrow) > len(wide)
        assert max(len(line) for line in narrow) <= view.scrollable_content_region.width
        assert " ".join(narrow).split() == LONG.split() == " ".join(wide).split()
        assert view.virtual_size.width == view.scrollable_content_region.width
