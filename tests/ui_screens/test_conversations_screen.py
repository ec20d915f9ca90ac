"""The conversations screen lists, searches, opens, renames and deletes conversations."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from textual.widgets import DataTable, Input, Label, OptionList
from textual.worker import WorkerFailed

from storage.sqlite_store import SqliteConversationStore
from storage.store import StorageError
from tests.runtime.helpers import active_leaf_id
from tests.ui_screens.conftest import SCREEN_SIZE, ScreenHost
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.screens.conversations import (
    PAGE,
    ConversationsScreen,
    NewConversation,
    OpenConversation,
    highlighted,
)
from weaver_tui.screens.rename import RenameScreen


def host_for(store: SqliteConversationStore) -> ScreenHost:
    return ScreenHost(lambda: ConversationsScreen(store))


def titles(app: ScreenHost) -> list[str]:
    table = app.screen.query_one(DataTable)
    return [str(table.get_row_at(row)[0]) for row in range(table.row_count)]


async def test_lists_newest_first_with_profile_and_date(store: SqliteConversationStore) -> None:
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.pause()
        assert titles(app) == ["Literature review", "Budget talk", "Reading the parser"]
        first_row = app.screen.query_one(DataTable).get_row_at(0)
        assert first_row[1] == "paper-pilot"
        assert first_row[2] == "2026-03-03 10:18"


async def test_enter_opens_the_highlighted_conversation(store: SqliteConversationStore) -> None:
    budget = store.list_conversations()[1]
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("down", "down", "enter")  # out of the search box, then one row down
        await pilot.pause()
        assert app.results == [OpenConversation(budget.id)]


async def test_n_asks_for_a_new_conversation_and_escape_leaves(
    store: SqliteConversationStore,
) -> None:
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.results == [NewConversation()]
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]


async def test_search_finds_a_message_on_a_side_branch_and_opens_it_there(
    store: SqliteConversationStore,
) -> None:
    budget = store.list_conversations()[1]
    side = next(m for m in store.list_messages(budget.id) if "zebra" in m.content)
    assert active_leaf_id(store, budget.id) != side.id  # not on the active branch
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("n")  # typing in the box never triggers the n key
        await pilot.pause()
        assert app.results == []
        app.screen.query_one("#search", Input).value = "zebr"
        await pilot.pause()
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        results = app.screen.query_one("#search-results", OptionList)
        assert results.option_count == 1
        assert "Budget talk" in str(results.get_option_at_index(0).prompt)
        await pilot.press("enter")  # Enter in the box opens the best hit
        await pilot.pause()
        assert app.results == [OpenConversation(budget.id, side.id)]


async def test_down_from_the_search_box_chooses_among_the_hits(
    store: SqliteConversationStore,
) -> None:
    budget = store.list_conversations()[1]
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press(*"split")
        await pilot.pause()
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        results = app.screen.query_one("#search-results", OptionList)
        assert results.option_count == 2
        await pilot.press("down")  # from the box to the first hit
        assert results.has_focus
        assert results.highlighted == 0
        await pilot.press("down", "enter")  # the second hit
        await pilot.pause()
        hits = store.search("split", 10)  # the order the screen lists them in
        assert app.results == [OpenConversation(budget.id, hits[1].message_id)]


async def test_clearing_the_search_shows_the_list_again(store: SqliteConversationStore) -> None:
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("slash")
        app.screen.query_one("#search", Input).value = "parser"
        await pilot.pause()
        await app.screen.workers.wait_for_complete()
        assert isinstance(app.screen, ConversationsScreen)
        assert app.screen.searching
        app.screen.query_one("#search", Input).value = ""
        await pilot.pause()
        await app.screen.workers.wait_for_complete()
        assert isinstance(app.screen, ConversationsScreen)
        assert not app.screen.searching
        assert len(titles(app)) == 3


async def test_rename_saves_the_new_title(store: SqliteConversationStore) -> None:
    parser = store.list_conversations()[2]
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("down", "down", "down", "r")
        await pilot.pause()
        assert isinstance(app.screen, RenameScreen)
        app.screen.query_one(Input).value = "Parser tour"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConversationsScreen)
        assert store.get_conversation(parser.id).title == "Parser tour"
        assert "Parser tour" in titles(app)
        assert app.results == []


async def test_delete_asks_first_and_cancel_keeps_it(store: SqliteConversationStore) -> None:
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("down", "d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert len(store.list_conversations()) == 3
        await pilot.press("delete", "y")
        await pilot.pause()
        assert [c.title for c in store.list_conversations()] == [
            "Budget talk",
            "Reading the parser",
        ]
        assert titles(app) == ["Budget talk", "Reading the parser"]


async def test_typing_goes_to_the_search_box_never_to_a_command(
    store: SqliteConversationStore,
) -> None:
    app = host_for(store)
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press(*"dpo")  # d would ask to delete, were the list taking the keys
        await pilot.pause()
        assert isinstance(app.screen, ConversationsScreen)
        assert app.screen.query_one("#search", Input).value == "dpo"
        await pilot.press("enter")  # nothing matches: Enter opens no row
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        assert app.results == []
        assert len(store.list_conversations()) == 3
        app.screen.query_one("#search", Input).value = ""
        await app.screen.workers.wait_for_complete()
        await pilot.press("down", "n")  # in the list, the letters are commands again
        await pilot.pause()
        assert app.results == [NewConversation()]


def test_snippet_highlights_replace_the_markers() -> None:
    text = highlighted("split by «zebra» stripes")
    assert text.plain == "split by zebra stripes"
    assert [text.plain[span.start : span.end] for span in text.spans] == ["zebra"]


class FailingSearchStore(SqliteConversationStore):
    """The real store, except that search fails the way a locked or broken index would."""

    def __init__(self, path, error: Exception) -> None:  # type: ignore[no-untyped-def]
        super().__init__(path)
        self.error = error

    def search(self, query: str, limit: int = 50, viewer: str | None = None) -> list:  # type: ignore[type-arg]
        raise self.error


async def test_a_failed_search_says_why_and_keeps_the_screen(
    store: SqliteConversationStore,
) -> None:
    for error, shown in (
        (
            StorageError("The conversation database is locked."),
            "The conversation database is locked.",
        ),
        (RuntimeError("index exploded"), "Search failed: index exploded"),
    ):
        failing = FailingSearchStore(store.path, error)
        app = host_for(failing)
        async with app.run_test(size=SCREEN_SIZE) as pilot:
            await pilot.press("slash")
            app.screen.query_one("#search", Input).value = "zebra"
            await pilot.pause()
            with suppress(WorkerFailed):  # the unexpected error is the point of the test
                await app.screen.workers.wait_for_complete()
            await pilot.pause()
            status = app.screen.query_one("#conversations-status", Label)
            assert str(status.content) == shown
            assert isinstance(app.screen, ConversationsScreen)
        failing.close()


async def test_a_big_store_is_listed_a_page_at_a_time_as_the_cursor_goes_down(
    tmp_path: Path,
) -> None:
    """The list reads one page, counts them all, and reads the next page as the cursor nears
    the end of what it read: every conversation is reached, each once, newest first."""
    total = PAGE * 2 + 7
    with SqliteConversationStore(tmp_path / "big.sqlite") as big:
        for number in range(total):
            big.create_conversation("ide-helper", title=f"conversation {number}")
        newest_first = [c.id for c in big.list_conversations()]
        app = host_for(big)
        async with app.run_test(size=SCREEN_SIZE) as pilot:
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            assert table.row_count == PAGE
            status = str(app.screen.query_one("#conversations-status", Label).render())
            assert f"{total} conversations" in status
            table.focus()
            while table.cursor_row < table.row_count - 1:
                table.move_cursor(row=table.row_count - 1)
                await pilot.pause()
            keys = [key.value for key in table.rows]
            assert keys == newest_first
