"""Per-message actions: keyboard selection, version flips, fork/edit/regenerate, copying, links."""

from __future__ import annotations

from typing import Any

from textual.geometry import Offset
from textual.selection import Selection

from weaver_tui.widgets.message_view import MessageItem, MessageView

from .conftest import SIZE, HostApp

ITEMS = [
    MessageItem(id="u1", role="user", content="How do I sort a list?"),
    MessageItem(
        id="a1",
        role="assistant",
        content="Use `sorted`:\n\n```python\nsorted([3, 1, 2])\n```\n\nOr in place:\n\n"
        "```python\nitems.sort()\n```\n\nSee [the docs](https://docs.python.org/3/howto/sorting.html).",
        version=2,
        sibling_count=3,
        badge="assistant · offline · 0.2s",
    ),
]


def _posted(app: HostApp, kind: type) -> list[Any]:
    return [message for message in app.posted if isinstance(message, kind)]


async def test_keys_move_the_selection_and_post_selected() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        await pilot.press("up")
        await pilot.pause()
        assert view.selected_message_id == "a1"
        await pilot.press("k")
        await pilot.pause()
        assert view.selected_message_id == "u1"
        await pilot.press("j")
        await pilot.pause()
        assert [m.message_id for m in _posted(app, MessageView.Selected)] == ["a1", "u1", "a1"]
        header = view._line_strip(view._layout.tops[1])
        assert header is not None
        palette = view._palette
        assert palette is not None
        assert all(
            seg.style is not None and seg.style.bgcolor is not None
            for seg in header
            if seg.text.strip()
        )
        assert palette.selected_header.bgcolor in {seg.style.bgcolor for seg in header if seg.style}


async def test_version_keys_and_header_arrows_request_flips() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        assert "< 2/3 >" in view.visible_text()[view._layout.tops[1]]
        await pilot.press("up", "left_square_bracket", "right_square_bracket")
        await pilot.pause()
        flips = _posted(app, MessageView.VersionFlipRequested)
        assert [(m.message_id, m.delta) for m in flips] == [("a1", -1), ("a1", 1)]

        header_y = view._layout.tops[1]
        header_text = view.visible_text()[header_y]
        await pilot.click(MessageView, offset=(header_text.index(">"), header_y))
        await pilot.pause()
        flips = _posted(app, MessageView.VersionFlipRequested)
        assert (flips[-1].message_id, flips[-1].delta) == ("a1", 1)
        assert flips[-1].control is view

        # A message without siblings asks for nothing.
        await pilot.press("k", "right_square_bracket")
        await pilot.pause()
        assert len(_posted(app, MessageView.VersionFlipRequested)) == 3


async def test_fork_edit_and_regenerate_keys_post_action_requests() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("up", "f", "r", "k", "e")
        await pilot.pause()
        requests = [(m.message_id, m.action) for m in _posted(app, MessageView.ActionRequested)]
        assert requests == [("a1", "fork"), ("a1", "regenerate"), ("u1", "edit")]


async def test_copy_keys_put_the_message_and_the_code_block_on_the_clipboard() -> None:
    app = HostApp(ITEMS)
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign,assignment]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("up", "y")
        await pilot.pause()
        assert copied == [ITEMS[1].content]
        await pilot.press("c")
        await pilot.pause()
        # Both code blocks are in view: the last one visible is copied, without its fence.
        assert copied[-1] == "items.sort()"
        await pilot.press("k", "y")
        await pilot.pause()
        assert copied[-1] == "How do I sort a list?"
        actions = [(m.message_id, m.action) for m in _posted(app, MessageView.ActionRequested)]
        assert actions == [("a1", "copy"), ("u1", "copy")]
        assert [(m.message_id, m.code) for m in _posted(app, MessageView.CodeCopied)] == [
            ("a1", "items.sort()")
        ]


async def test_mouse_selection_copies_the_selected_text() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        lines = view.visible_text()
        first = lines.index("How do I sort a list?")
        app.screen.selections = {view: Selection(Offset(7, first), Offset(4, first + 2))}
        await pilot.pause()
        assert app.screen.get_selected_text() == "I sort a list?\n\n▌ as"
        # The selected characters are drawn with the screen's selection style.
        selection_style = app.screen.get_component_rich_style("screen--selection")
        strip = view.render_line(first)
        styled = "".join(
            seg.text
            for seg in strip
            if seg.style
            and selection_style.bgcolor
            and seg.style.bgcolor == selection_style.bgcolor
        )
        assert styled.startswith("I sort a list?")


async def test_links_are_clickable() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        lines = view.visible_text()
        y = next(i for i, line in enumerate(lines) if "the docs" in line)
        x = lines[y].index("the docs")
        strip = view.render_line(y)
        metas = [seg.style.meta for seg in strip if seg.style and seg.style.link]
        assert metas
        assert "@click" in metas[0]
        await pilot.click(MessageView, offset=(x + 1, y))
        await pilot.pause()
        links = _posted(app, MessageView.LinkClicked)
        assert [m.href for m in links] == ["https://docs.python.org/3/howto/sorting.html"]


async def test_clicking_a_message_selects_it() -> None:
    app = HostApp(ITEMS)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        await pilot.click(MessageView, offset=(3, 1))
        await pilot.pause()
        assert view.selected_message_id == "u1"
        assert [m.message_id for m in _posted(app, MessageView.Selected)] == ["u1"]
