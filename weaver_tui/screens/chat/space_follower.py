"""The host's chat on a served space, kept live: what other processes write appears at once.

While a conversation with participants is open, a shared space's other processes write to it:
the space's host runner stores a seat's message and the mediator's reply, a seat's browser
opens or closes. The chat screen asks the store's change signal
(:class:`storage.change_signal.StoreChanges`, one ``PRAGMA data_version`` read) on a short
timer of the screen; after a change it takes only the records written since it last looked
(:meth:`~weaver_tui.core.chat_state.ChatState.take_written`) into the state, redraws the path
through the chosen view, and shows who is connected in the mediator's panel.

A turn of this screen's own is left alone while it runs (its events carry its records); the
change it made is taken once it ends. A timer, not a worker: it lives as long as the screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from storage.backend import open_changes, open_seat_book
from storage.change_signal import POLL_S
from storage.consents import ConsentBook, ConsentRequest
from storage.seats import Seat
from storage.space_books import open_consent_book
from storage.store import StorageError

if TYPE_CHECKING:
    from agents.shared_space.agenda import AgendaTopic
    from agents.shared_space.statements import Statement
    from storage.backend import AnyChanges, AnySeatBook, Where
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.path_presenter import PathPresenter
    from weaver_tui.screens.chat.profile_panel import ProfilePanel
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.widgets.space_panel import SpacePanel

logger = logging.getLogger(__name__)

FOLLOW_S = POLL_S
"""How often the change signal is read while a conversation with participants is open."""


class SpaceFollower:
    """Follows the open conversation's writes by other processes (see the module)."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        db_path: Where,
        *,
        presenter: PathPresenter,
        panels: ProfilePanel,
        waiting: Callable[[], list[tuple[str, str]]],
    ) -> None:
        self._waiting = waiting
        self._surface = surface
        self._state = state
        self._presenter = presenter
        self._panels = panels
        self._db_path = db_path
        self._changes: AnyChanges | None = None
        self._seats: AnySeatBook | None = None
        self._followed: str | None = None
        """The conversation the last look was at (another one opened: look again at once)."""
        self._stale = True
        """A change was seen and not yet taken."""
        self._failing = False
        """The last look failed (said once, until a look succeeds)."""
        self._seats_seen: list[Seat] = []
        self._waiting_seen: list[tuple[str, str]] = []
        self._statements_seen: list[Statement] = []
        self._consents_seen: list[ConsentRequest] = []
        self._agenda_seen: list[AgendaTopic] = []
        self._meter_seen: str | None = None
        self._consents: ConsentBook | None = None
        self._shown_on: SpacePanel | None = None
        """The panel the seats were last shown on (a panel mounted since gets them too)."""

    def poll(self) -> None:
        """One tick of the screen's timer: take what changed, when something did."""
        state = self._state
        conversation = state.conversation
        if conversation is None or not state.traits.participants:
            return
        if self._changes is None:
            self._changes = open_changes(self._db_path)
            self._seats = open_seat_book(self._db_path)
            self._consents = open_consent_book(self._db_path)
        if self._changes.changed() or conversation.id != self._followed:
            self._stale = True
        surface = self._surface
        if self._stale and not surface.running and surface.agents_ready:
            self._stale = False
            self._followed = conversation.id
            self.catch_up()
        panel = self._panels.space_panel()
        if panel is not None and panel is not self._shown_on:
            self._show_seats()

    def catch_up(self) -> None:
        """Take the records others wrote, show the path again if any, and the seats."""
        state = self._state
        assert state.conversation is not None
        assert self._seats is not None
        from agents.shared_space.agenda import agenda_for, meter_line, shares_for
        from agents.shared_space.statements import current_open, statement_board

        try:
            taken = state.take_written()
            seats = self._seats.seats(state.conversation.id)
            self._waiting_seen = self._waiting()
            conversation_id = state.conversation.id
            board = statement_board(state.store, conversation_id, "shared", state.leaf_id)
            self._statements_seen = board
            self._agenda_seen = agenda_for(
                state.store, conversation_id, "shared", board, state.leaf_id
            )
            shares = shares_for(state.store, conversation_id, state.leaf_id)
            written = any(shares.values())
            self._meter_seen = meter_line(shares, current_open(board)) if written else None
            consents = self._consents
            self._consents_seen = (
                consents.waiting(state.conversation.id, None) if consents is not None else []
            )
        except StorageError as exc:
            if not self._failing:
                logger.warning("the space could not be followed", extra={"error": str(exc)})
                self._surface.notify(
                    f"{exc} New messages of this space show when you reopen it.",
                    severity="error",
                )
            self._failing = True
            return
        self._failing = False
        self._seats_seen = seats
        self._show_seats()
        if taken:
            for record in taken:
                self._presenter.add_to_tree(record)
            self._presenter.show_path()

    def _show_seats(self) -> None:
        self._shown_on = panel = self._panels.space_panel()
        if panel is not None:
            panel.show_seats(self._seats_seen, self._waiting_seen)
            panel.show_statements(self._statements_seen, self._agenda_seen, self._meter_seen)
            panel.show_consents(self._consents_seen)

    def close(self) -> None:
        if self._changes is not None:
            self._changes.close()
        if self._seats is not None:
            self._seats.close()
        if self._consents is not None:
            self._consents.close()
