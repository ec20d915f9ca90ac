"""A participant's seat in a served shared space: locked to them, live, and writing no record.

``weaver-tui space open`` starts this app for each browser that opens a participant's link
(the host's space server resolves the link's token into the participant and the
conversation). The seat is a small app of its own rather than the full chat app in a mode:
what it can do is what it has, so there is nothing to switch speaker or view with.

- It shows what its participant may read (:func:`agents.shared_space.seat_view.seat_lines`,
  filtered in the store's query), and reloads when anyone commits to the store (the change
  signal, :class:`storage.change_signal.StoreChanges`): a message sent at another seat, the
  mediator's delivery, appears within the poll interval.
- Enter sends as its participant (printable text within ``max_bytes``, or refused whole:
  :mod:`weaver_tui.seat_composer`); F8 chooses the audience (the mediator only, or everyone).
  The message waits in the store's seat queue (:class:`storage.seats.SeatBook`) until the
  host's runner stores and answers it, and shows as waiting until then. The seat holds no key
  and runs no model: closing it mid-reply loses nothing.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from agents.shared_space.seat_view import seat_lines
from agents.shared_space.space import SpaceMessage
from storage.change_signal import StoreChanges
from storage.printable import printable
from storage.seats import QueuedMessage, SeatBook
from storage.sqlite_store import SqliteConversationStore
from storage.store import StorageError
from weaver_tui.seat_composer import DEFAULT_MAX_BYTES, MessageTooLarge, SeatComposer, seat_message

logger = logging.getLogger(__name__)


def audience_words(shared: bool) -> str:
    return "everyone" if shared else "the mediator only"


def line_text(line: SpaceMessage, participant: str) -> Text:
    """One line of the seat's view: who wrote it, to whom, and the words."""
    author = "You" if line.author == participant else line.author
    if line.visibility == "shared":
        to = "to everyone"
    elif line.kind == "delivered":
        to = "to you, privately"
    else:
        to = "to the mediator, privately"
    text = Text()
    text.append(f"{printable(author)} ", style="bold")
    text.append(f"({to})", style="dim")
    text.append("\n" + printable(line.content))
    return text


def waiting_text(queued: QueuedMessage) -> Text:
    text = Text()
    if queued.status == "failed":
        text.append("Not sent: ", style="bold red")
        text.append(printable(queued.error or "the host could not send it."))
        text.append("\n" + printable(queued.content), style="dim")
        return text
    state = "answering" if queued.status == "answering" else "waiting for its turn"
    text.append(f"You ({audience_words(queued.shared)}, {state})", style="bold dim")
    text.append("\n" + printable(queued.content), style="dim")
    return text


class SeatApp(App[None]):
    """One participant's seat; see the module docstring."""

    TITLE = "weaver-tui"
    CSS = """
    #lines { height: 1fr; padding: 0 1; }
    #lines > Static { margin-bottom: 1; }
    .waiting { color: $text-muted; }
    #audience { height: 1; padding: 0 1; background: $panel; }
    """
    ENABLE_COMMAND_PALETTE = False  # no command to reach: the seat is what it shows
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f8", "toggle_audience", "Audience", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        db_path: Path,
        conversation_id: str,
        participant: str,
        *,
        poll_s: float = 0.05,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        super().__init__()
        self.max_bytes = max_bytes
        self.store = SqliteConversationStore(db_path)
        self.seats = SeatBook(db_path)
        self.changes = StoreChanges(db_path)
        self.conversation_id = conversation_id
        self.participant = participant
        self.shared = False
        self.poll_s = poll_s
        self.shown: list[Text] = []
        """What the seat shows, line by line (its own waiting messages last)."""

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="lines")
        yield Static(id="audience")
        yield SeatComposer(
            self.max_bytes, placeholder="Write to the space; Enter sends", id="composer"
        )

    def on_mount(self) -> None:
        self.sub_title = f"{self.participant}'s seat"
        self._show_audience()
        self.query_one("#composer", Input).focus()
        self.refresh_lines()
        self.follow_changes()

    def _show_audience(self) -> None:
        self.query_one("#audience", Static).update(
            f"You are {printable(self.participant)}, speaking to "
            f"{audience_words(self.shared)} (F8 switches)"
        )

    def action_toggle_audience(self) -> None:
        self.shared = not self.shared
        self._show_audience()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            text = seat_message(event.value, self.max_bytes)
        except MessageTooLarge as exc:
            self.notify(str(exc), severity="error")
            return
        if not text:
            return
        try:
            self.seats.enqueue(self.conversation_id, self.participant, text, self.shared)
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        event.input.value = ""
        self.refresh_lines()

    @work(exclusive=True, group="changes")
    async def follow_changes(self) -> None:
        """Reload whenever another connection commits to the store."""
        while True:
            await self.changes.wait(poll_s=self.poll_s)
            self.refresh_lines()

    def refresh_lines(self) -> None:
        """Show what the participant may read, then their messages still in line."""
        try:
            lines = seat_lines(self.store, self.conversation_id, self.participant)
            queued = self.seats.queued(self.conversation_id, self.participant)
        except StorageError as exc:
            logger.warning("the seat could not read the space", extra={"error": str(exc)})
            self.notify(str(exc), severity="error")
            return
        texts = [line_text(line, self.participant) for line in lines]
        texts += [waiting_text(q) for q in queued]
        if texts != self.shown:
            self._render_lines(texts, waiting=len(queued))

    def _render_lines(self, texts: list[Text], waiting: int) -> None:
        box = self.query_one("#lines", VerticalScroll)
        box.remove_children()
        first_waiting = len(texts) - waiting
        box.mount_all(
            Static(text, classes="waiting" if i >= first_waiting else "")
            for i, text in enumerate(texts)
        )
        box.scroll_end(animate=False)
        self.shown = texts

    def on_unmount(self) -> None:
        self.changes.close()
        self.seats.close()
        self.store.close()
