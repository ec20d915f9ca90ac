"""The screen-facing API: replacing the path, updating items, selecting across history."""

from __future__ import annotations

from dataclasses import replace

from textual.selection import SELECT_ALL

from weaver_tui.widgets.message_view import MessageItem, MessageView

from .conftest import SIZE, HostApp, drained, history


async def test_update_item_redraws_the_header_and_keeps_rendered_blocks() -> None:
    items = history(4)
    app = HostApp(items)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        rendered = view.blocks_rendered
        view.update_item(replace(items[3], version=3, sibling_count=3, badge="assistant · b"))
        await pilot.pause()
        assert view.blocks_rendered == rendered
        assert any("assistant · b  < 3/3 >" in line for line in view.visible_text())

        view.update_item(replace(items[3], content="A new *answer*."))
        await pilot.pause()
        assert view.blocks_rendered == rendered + 1
        assert "A new answer." in view.visible_text()
        item = view.get_item("m3")
        assert item is not None
        assert item.content == "A new *answer*."


async def test_set_messages_replaces_the_path_and_forgets_a_vanished_selection() -> None:
    app = HostApp(history(6))
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.select_message("m5")
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "streamed so far")
        await drained(view, pilot)
        assert view.items[-1].content == "streamed so far"

        view.set_messages(history(2))
        await pilot.pause()
        assert [item.id for item in view.items] == ["m0", "m1"]
        assert view.selected_message_id is None
        assert view.following
        assert "Question number 0?" in view.visible_text()


async def test_select_all_over_a_long_path_copies_everything_without_rendering_it() -> None:
    app = HostApp(history(2000))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(MessageView)
        app.screen.selections = {view: SELECT_ALL}
        text = app.screen.get_selected_text()
        assert text is not None
        assert text.startswith("▌ user\nQuestion number 0?")
        assert "print(1001)" in text
        assert text.endswith("print(1999)")
        assert view.cached_block_count <= 40


async def test_an_error_notice_wraps_under_the_message_and_the_theme_redraws_it() -> None:
    app = HostApp([MessageItem(id="u", role="user", content="hi")])
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        sentence = "The provider refused the request. " * 5
        view.update_item(
            MessageItem(id="u", role="user", content="hi", status="error", error=sentence.strip())
        )
        await pilot.pause()
        lines = view.visible_text()
        notice = [line for line in lines if "provider refused" in line]
        assert len(notice) >= 2
        assert notice[0].startswith("✗ ")
        # header, body, the wrapped notice, the blank line between messages
        assert view._layout.total == 3 + len(notice)
        app.theme = "textual-light"
        await pilot.pause()
        assert [line for line in view.visible_text() if "provider refused" in line] == notice


async def test_update_item_mid_stream_keeps_the_streamed_text() -> None:
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "Hello, this arrived ")
        await drained(view, pilot)
        view.append_text("r", "and this is still pending")
        # The screen refreshes the badge from a record flushed earlier (an older prefix).
        view.update_item(
            MessageItem(id="r", role="assistant", content="Hello,", status="streaming", badge="x")
        )
        view.append_text("r", ".")
        await drained(view, pilot)
        item = view.get_item("r")
        assert item is not None
        assert item.badge == "x"
        assert item.content == "Hello, this arrived and this is still pending."
        assert "Hello, this arrived and this is still pending." in view.visible_text()


async def test_text_streamed_before_the_view_is_mounted_is_shown() -> None:
    view = MessageView()
    view.set_messages(history(2))
    view.start_message(MessageItem(id="r", role="assistant"))
    view.append_text("r", "early words")
    app = HostApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.mount(view)
        await drained(view, pilot)
        assert "early words" in view.visible_text()
        assert "Question number 0?" in view.visible_text()


def test_every_stored_status_keeps_its_name_in_the_view_and_an_unknown_one_shows_complete() -> None:
    from storage.models import MessageStatus
    from weaver_tui.core.message_item import as_status

    assert [as_status(status.value) for status in MessageStatus] == [s.value for s in MessageStatus]
    assert as_status("archived") == "complete"


async def test_a_message_written_on_several_lines_keeps_its_lines() -> None:
    app = HostApp(
        [
            MessageItem(id="u", role="user", content="first line\nsecond line\nthird *line*"),
            MessageItem(id="a", role="assistant", content="soft\nwrapped reply"),
        ]
    )
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(MessageView)
        await pilot.pause()
        lines = [line.strip() for line in view.visible_text()]
        assert "first line" in lines
        assert "second line" in lines
        assert "third line" in lines
        assert "soft wrapped reply" in lines  # a reply is Markdown: its soft breaks join
