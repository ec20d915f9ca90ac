"""The conversations list: newest first, full-text search over every branch, open/new/rename/delete.

``app.push_screen(ConversationsScreen(store), callback)``; the callback gets
:class:`OpenConversation` (with ``message_id`` when a search hit was chosen: open the
conversation on the branch through that message), :class:`NewConversation`, or ``None`` when
the user leaves with Esc. Renames and deletions are done here, on the store, right away.

Search runs as you type, in an exclusive worker after a short pause (so only the last query
runs), in a thread (SQLite FTS5 over all conversations); its hits replace the list until the
query is cleared.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from storage.models import Conversation
from storage.printable import printable
from storage.store import ConversationStore, SearchHit, StorageError
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.screens.rename import RenameScreen
from weaver_tui.widgets.footer import WeaverFooter
from weaver_tui.widgets.inline_bindings import OrderedInput

logger = logging.getLogger(__name__)

SEARCH_DELAY_S = 0.2
"""Pause after the last keystroke before searching (typing fast runs one search, not ten)."""

SEARCH_LIMIT = 50
PAGE = 200
"""Conversations read at a time: the list reads the next page as the cursor nears its end, so
opening it costs the same with a hundred conversations or a hundred thousand."""
MORE_WITHIN = 20
"""Rows from the end of what is read at which the next page is read."""
HIGHLIGHT = ("«", "»")
"""How :meth:`ConversationStore.search` marks the matched words in a snippet."""


@dataclass(frozen=True, slots=True)
class OpenConversation:
    """Open ``conversation_id``; on the branch through ``message_id`` when it is given."""

    conversation_id: str
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class NewConversation:
    """Start a new conversation with the current profile."""


ConversationsResult = OpenConversation | NewConversation


def highlighted(snippet: str, style: str = "bold reverse") -> Text:
    """A search snippet with its «matched» words styled instead of bracketed."""
    text = Text()
    rest = snippet
    opening, closing = HIGHLIGHT
    while (start := rest.find(opening)) != -1 and (end := rest.find(closing, start)) != -1:
        text.append(rest[:start])
        text.append(rest[start + 1 : end], style)
        rest = rest[end + 1 :]
    text.append(rest)
    return text


class ConversationsScreen(Screen[ConversationsResult | None]):
    """Every conversation, and a search box that finds a message on any branch."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+n", "new", "New"),
        Binding("n", "new", "New", show=False),
        Binding("r", "rename", "Rename"),
        Binding("d,delete", "delete", "Delete"),
        Binding("slash,ctrl+f", "search", "Search"),
        Binding("down", "to_list", "To the list"),
    ]
    """
    The screen opens in the search box, where typing searches: a letter there is never a
    command (the box takes it), so the one-letter keys work only in the list.

    | Key(s) | Description |
    | :- | :- |
    | enter | Open the highlighted conversation (or search hit). |
    | ctrl+n (n in the list) | New conversation. |
    | r (in the list) | Rename the highlighted conversation. |
    | d, delete (in the list) | Delete the highlighted conversation (asks first). |
    | / , ctrl+f | Back to the search box. |
    | down | From the search box, to the hits (or the list). |
    | escape | Back to the chat. |
    """

    DEFAULT_CSS = """
    ConversationsScreen {
        & > #conversations { padding: 0 1; }
        & #conversations-title { text-style: bold; padding: 0 1; }
        & #search { margin-bottom: 1; }
        & DataTable, OptionList { height: 1fr; }
        & #search-results { display: none; }
        & .-searching #search-results { display: block; }
        & .-searching #conversation-list { display: none; }
        & #conversations-status { color: $text-muted; padding: 0 1; }
    }
    """

    def __init__(self, store: ConversationStore, viewer: str | None = None) -> None:
        super().__init__()
        self.store = store
        self.viewer = viewer
        """Whose view the list was opened from (``None``: everything): in a shared space,
        search finds only what that reader may read (the store's query filters it)."""
        self._conversations: list[Conversation] = []
        self._total = 0
        """How many conversations the store holds (the list reads them a page at a time)."""
        self._hits: list[SearchHit] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="conversations"):
            yield Label("Conversations", id="conversations-title", markup=False)
            yield OrderedInput(
                placeholder="Search every branch of every conversation…", id="search"
            )
            yield DataTable(cursor_type="row", zebra_stripes=True, id="conversation-list")
            yield OptionList(id="search-results")
            yield Label("", id="conversations-status", markup=False)
        yield WeaverFooter()

    def on_mount(self) -> None:
        table = self._table
        table.add_column("Title", key="title")
        table.add_column("Profile", key="profile")
        table.add_column("Updated", key="updated")
        self.reload()
        self._search_box.focus()

    @property
    def _search_box(self) -> Input:
        return self.query_one("#search", Input)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Rename and delete act on the list (and search leads back to the box): hidden while
        the search box has the keys."""
        if action in ("rename", "delete", "search") and self.focused is self._search_box:
            return False
        return action != "to_list" or self.focused is self._search_box

    @property
    def _table(self) -> DataTable[str]:
        return self.query_one("#conversation-list", DataTable)

    @property
    def _results(self) -> OptionList:
        return self.query_one("#search-results", OptionList)

    @property
    def searching(self) -> bool:
        return self.query_one("#conversations").has_class("-searching")

    def _status(self, text: str) -> None:
        self.query_one("#conversations-status", Label).update(text)

    def reload(self, keep: str | None = None) -> None:
        """Read the list again (newest first, its first page), keeping the cursor on ``keep``
        if it is there."""
        self._table.clear()
        self._conversations = []
        try:
            self._total = self.store.count_conversations()
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        self._read_more()
        ids = [conversation.id for conversation in self._conversations]
        if keep in ids:
            self._table.move_cursor(row=ids.index(keep))
        count = self._total
        self._status(
            f"{count} conversation{'s' if count != 1 else ''} · type to search · ↓ to the list, "
            "then Enter open · r rename · d delete"
            if count
            else "No conversations yet: press Ctrl+N to start one."
        )

    def _read_more(self) -> None:
        """Add the next page of conversations to the list."""
        try:
            page = self.store.list_conversations(limit=PAGE, offset=len(self._conversations))
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        table = self._table
        read = {conversation.id for conversation in self._conversations}
        for conversation in page:
            if conversation.id in read:
                continue  # moved up into a page already read (written meanwhile)
            updated = conversation.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")
            table.add_row(conversation.title, conversation.profile, updated, key=conversation.id)
            self._conversations.append(conversation)

    @on(DataTable.RowHighlighted, "#conversation-list")
    def _near_the_end(self, event: DataTable.RowHighlighted) -> None:
        """The cursor nears the last conversation read: read the next page."""
        read = len(self._conversations)
        if read < self._total and event.cursor_row >= read - MORE_WITHIN:
            self._read_more()

    def _highlighted(self) -> tuple[str, str | None] | None:
        """(conversation id, message id of a search hit) under the cursor."""
        if self.searching:
            index = self._results.highlighted
            if index is None or index >= len(self._hits):
                return None
            hit = self._hits[index]
            return hit.conversation_id, hit.message_id
        row = self._table.cursor_row
        if not self._conversations or not 0 <= row < len(self._conversations):
            return None
        return self._conversations[row].id, None

    # ------------------------------------------------------------------ open / new

    @on(DataTable.RowSelected, "#conversation-list")
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.dismiss(OpenConversation(event.row_key.value))

    @on(OptionList.OptionSelected, "#search-results")
    def _hit_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        hit = self._hits[event.option_index]
        self.dismiss(OpenConversation(hit.conversation_id, hit.message_id))

    def action_new(self) -> None:
        self.dismiss(NewConversation())

    def action_close(self) -> None:
        if self.focused is self.query_one("#search", Input) and self.searching:
            self.query_one("#search", Input).value = ""
            return
        self.dismiss(None)

    # ------------------------------------------------------------------ rename / delete

    def _conversation(self, conversation_id: str) -> Conversation | None:
        return next((c for c in self._conversations if c.id == conversation_id), None)

    def action_rename(self) -> None:
        chosen = self._highlighted()
        conversation = self._conversation(chosen[0]) if chosen else None
        if conversation is None:
            return

        def renamed(title: str | None) -> None:
            if not title or title == conversation.title:
                return
            try:
                self.store.rename_conversation(conversation.id, title)
            except StorageError as exc:
                self.notify(str(exc), severity="error")
                return
            self.reload(keep=conversation.id)
            self._refresh_search()

        self.app.push_screen(RenameScreen(conversation.title), renamed)

    def action_delete(self) -> None:
        chosen = self._highlighted()
        conversation = self._conversation(chosen[0]) if chosen else None
        if conversation is None:
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.store.delete_conversation(conversation.id)
            except StorageError as exc:
                self.notify(str(exc), severity="error")
                return
            self.notify(f"Deleted “{conversation.title}”.")
            self.reload()
            self._refresh_search()

        question = f"Delete “{conversation.title}” and every message in it?"
        self.app.push_screen(ConfirmScreen(question, "Delete"), answered)

    # ------------------------------------------------------------------ search

    def action_search(self) -> None:
        self._search_box.focus()

    def search_for(self, words: str) -> None:
        """Search for ``words`` (the cursor in the search field, the hits shown)."""
        box = self._search_box
        box.focus()
        box.value = words
        box.cursor_position = len(words)

    @on(Input.Changed, "#search")
    def _query_changed(self, event: Input.Changed) -> None:
        self._search(event.value)

    @on(Input.Submitted, "#search")
    def _query_submitted(self, event: Input.Submitted) -> None:
        """Enter in the box opens the highlighted hit (the best one unless the user moved), or,
        with nothing typed, the highlighted conversation (Ctrl+O, Enter reopens the newest)."""
        event.stop()
        if self.searching and self._hits:
            index = self._results.highlighted or 0
            hit = self._hits[min(index, len(self._hits) - 1)]
            self.dismiss(OpenConversation(hit.conversation_id, hit.message_id))
            return
        if event.value.strip():  # typed faster than the search ran: Enter waits for its hits
            return
        chosen = self._highlighted()
        if chosen is not None:
            self.dismiss(OpenConversation(chosen[0], chosen[1]))

    def action_to_list(self) -> None:
        """From the search box down to the hits (or to the list when not searching)."""
        if self.focused is not self.query_one("#search", Input):
            raise SkipAction()
        (self._results if self.searching else self._table).focus()

    def _refresh_search(self) -> None:
        if self.searching:
            self._search(self.query_one("#search", Input).value)

    @work(exclusive=True, group="conversation-search", exit_on_error=False)
    async def _search(self, query: str) -> None:
        """Search after a pause; a newer keystroke cancels this worker while it waits."""
        query = query.strip()
        panel = self.query_one("#conversations")
        if not query:
            chosen = self._highlighted()
            panel.remove_class("-searching")
            self.reload(keep=chosen[0] if chosen else None)
            return
        await asyncio.sleep(SEARCH_DELAY_S)
        try:
            hits = await asyncio.to_thread(
                self.store.search, query, SEARCH_LIMIT, viewer=self.viewer
            )
        except StorageError as exc:
            self._status(str(exc))
            return
        self._show_hits(query, hits)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A search that failed unexpectedly says so here instead of closing the app."""
        if event.worker.group == "conversation-search" and event.state == WorkerState.ERROR:
            logger.error("conversation search failed", exc_info=event.worker.error)
            self._status(f"Search failed: {event.worker.error}")

    def _show_hits(self, query: str, hits: list[SearchHit]) -> None:
        self._hits = hits
        results = self._results
        results.clear_options()
        results.add_options(
            Option(
                Text.assemble(
                    (printable(hit.conversation_title), "bold"),
                    (f"  {hit.role}\n", "dim"),
                    "  ",
                    highlighted(" ".join(printable(hit.snippet).split())),
                ),
                id=f"{hit.conversation_id}:{hit.message_id}",
            )
            for hit in hits
        )
        if hits:
            results.highlighted = 0
        self.query_one("#conversations").add_class("-searching")
        found = len(hits)
        self._status(
            f"{found}{'+' if found >= SEARCH_LIMIT else ''} message{'s' if found != 1 else ''} "
            f"match “{query}” · ↓ choose · Enter opens the conversation at that message"
            if found
            else f"Nothing matches “{query}”."
        )
