"""Who of a served space is at their seat: "Seats: Alex ● connected, Sam ○ away".

The host's chat shows it in the mediator's panel while the space has seats (``weaver-tui
space open``, or the palette's "Invite participants"); a seat counts as connected while at
least one browser has its link open (the space server counts them in the store).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from storage.printable import printable
from storage.seats import Seat


def presence_text(seats: Sequence[Seat], waiting: Sequence[tuple[str, str]] = ()) -> Text:
    """One line naming each seat's participant and whether anyone holds it open; then a line
    per message waiting for its turn (speaker, words)."""
    text = Text("Seats: " if seats else "", style="dim")
    for i, seat in enumerate(seats):
        if i:
            text.append(", ")
        text.append(printable(seat.participant), style="bold")
        if seat.connections > 0:
            text.append(" ● connected", style="green")
        else:
            text.append(" ○ away", style="dim")
    for speaker, words in waiting:
        text.append(f"\nWaiting for its turn: {printable(speaker)}: ", style="dim bold")
        text.append(printable(words), style="dim")
    return text


class SeatPresence(Static):
    """The seats of the open space and who is connected (hidden while there are none)."""

    DEFAULT_CSS = """
    SeatPresence { height: auto; max-height: 6; padding: 0 1; display: none; }
    SeatPresence.-seated { display: block; }
    """

    def __init__(self, seats: Sequence[Seat] = (), *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.seats: tuple[Seat, ...] = ()
        """The seats shown (what the last :meth:`show_seats` was given)."""
        self.waiting: tuple[tuple[str, str], ...] = ()
        """The messages shown as waiting for their turn (speaker, words)."""
        self._given: tuple[tuple[Seat, ...], tuple[tuple[str, str], ...]] = (tuple(seats), ())
        """What to show: the seats it was built with, or what ``show_seats`` gave since (its
        panel may give seats after building it and before it is mounted)."""

    def on_mount(self) -> None:
        self._draw(*self._given)

    def show_seats(self, seats: Sequence[Seat], waiting: Sequence[tuple[str, str]] = ()) -> None:
        """Show ``seats`` and the messages ``waiting`` (none of either: hidden); redraws only
        when they changed."""
        self._given = (tuple(seats), tuple(waiting))
        if self._given != (self.seats, self.waiting):
            self._draw(*self._given)

    def _draw(self, seats: tuple[Seat, ...], waiting: tuple[tuple[str, str], ...]) -> None:
        self.seats, self.waiting = seats, waiting
        self.set_class(bool(seats or waiting), "-seated")
        self.update(presence_text(seats, waiting))
