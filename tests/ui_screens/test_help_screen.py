"""Help lists every binding it is given, grouped by area, and closes with Esc or F1."""

from __future__ import annotations

from rich.table import Table
from textual.widgets import Label, Static

from tests.ui_screens.conftest import SCREEN_SIZE, ScreenHost
from weaver_tui.keymap import KEYMAP
from weaver_tui.screens.help import HelpScreen
from weaver_tui.widgets.conversation_tree import ConversationTree


def shown_text(app: ScreenHost) -> str:
    """The text of the help screen's labels and of every cell of its tables."""
    parts = [str(label.content) for label in app.screen.query(Label)]
    for static in app.screen.query(".help-table").results(Static):
        table = static.content
        assert isinstance(table, Table)
        for column in table.columns:
            parts.extend(str(cell) for cell in column.cells)
    return "\n".join(parts)


async def test_help_lists_every_keymap_entry_by_area() -> None:
    app = ScreenHost(lambda: HelpScreen(KEYMAP))
    async with app.run_test(size=SCREEN_SIZE):
        text = shown_text(app)
        for entry in KEYMAP:
            assert entry.command in text, entry.command
            assert entry.description in text, entry.description
        assert "Conversation tree" in text
        assert "Everywhere" in text or "Chat" in text


async def test_help_takes_plain_rows_too() -> None:
    rows = [("tree", key, description) for key, description in ConversationTree.HELP_BINDINGS]
    app = ScreenHost(lambda: HelpScreen(rows))
    async with app.run_test(size=SCREEN_SIZE):
        text = shown_text(app)
        assert "Show the previous / next sibling version" in text
        assert "[ / ]" in text


async def test_help_closes_with_escape_and_f1() -> None:
    for key in ("escape", "f1"):
        app = ScreenHost(lambda: HelpScreen(KEYMAP))
        async with app.run_test(size=SCREEN_SIZE) as pilot:
            await pilot.press(key)
            await pilot.pause()
            assert app.results == [None]
