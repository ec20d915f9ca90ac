"""Pictures of the conversations and help screens (update with --snapshot-update)."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from storage.sqlite_store import SqliteConversationStore
from tests.ui_screens.conftest import SCREEN_SIZE, ScreenHost
from weaver_tui.screens.conversations import ConversationsScreen
from weaver_tui.screens.help import HelpScreen
from weaver_tui.widgets.conversation_tree import ConversationTree

HELP_ROWS = [
    ("app", "Ctrl+N", "Start a new conversation"),
    ("app", "Ctrl+O", "Open the conversations list"),
    ("app", "F1", "Show this help"),
    ("composer", "Enter", "Send the message"),
    ("composer", "Ctrl+J", "Insert a newline"),
    *(("tree", key, text) for key, text in ConversationTree.HELP_BINDINGS),
]


def test_conversations_screen(
    snap_compare: Callable[..., bool], store: SqliteConversationStore
) -> None:
    assert snap_compare(ScreenHost(lambda: ConversationsScreen(store)), terminal_size=SCREEN_SIZE)


def test_conversations_screen_search_hits(
    snap_compare: Callable[..., bool], store: SqliteConversationStore
) -> None:
    async def search(pilot: Pilot[None]) -> None:
        await pilot.press(*"split")
        await pilot.app.screen.workers.wait_for_complete()
        await pilot.pause()

    app = ScreenHost(lambda: ConversationsScreen(store))
    assert snap_compare(app, terminal_size=SCREEN_SIZE, run_before=search)


def test_help_screen(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(ScreenHost(lambda: HelpScreen(HELP_ROWS)), terminal_size=SCREEN_SIZE)
