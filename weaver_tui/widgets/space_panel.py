"""A shared space's panel above the composer: who is speaking to whom, and which channel shows.

A :class:`~weaver_tui.widgets.speaker_bar.SpeakerBar`, an
:class:`~weaver_tui.widgets.speaker_bar.AudienceBar`, a
:class:`~weaver_tui.widgets.channel_tabs.ChannelTabs`, one row each, and, while the space is
served, the :class:`~weaver_tui.widgets.seat_presence.SeatPresence` line, and the space's
statements (:class:`~weaver_tui.widgets.statement_box.StatementBox`: the current one's
versions side by side, who has answered, the agreed ones), and a post waiting for a
participant's consent. The panel adds no messages of its own:
``SpeakerBar.SpeakerChanged``, ``AudienceBar.AudienceChanged`` and ``ChannelTabs.ViewChanged``
bubble up through it to the chat's profile panel and screen. The profile panel's keys call
:meth:`SpacePanel.cycle_speaker`, :meth:`SpacePanel.cycle_audience` and
:meth:`SpacePanel.cycle_view` (the composer has the focus, so the bars' own keys rarely
see the press); the chat screen makes the next user record from :attr:`SpacePanel.speaker`
and :attr:`SpacePanel.shared` (a ``UserMessageEvent``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from storage.consents import ConsentRequest
from storage.printable import printable
from storage.seats import Seat
from weaver_tui.widgets.channel_tabs import ChannelTabs
from weaver_tui.widgets.seat_presence import SeatPresence
from weaver_tui.widgets.speaker_bar import AudienceBar, SpeakerBar
from weaver_tui.widgets.statement_box import StatementBox

if TYPE_CHECKING:  # the chat screen loads this before the agent stack
    from agents.shared_space.agenda import AgendaTopic
    from agents.shared_space.statements import Statement


class SpacePanel(Vertical):
    """Speaker bar and channel tabs for one space's participants."""

    DEFAULT_CSS = """
    SpacePanel {
        height: auto;
        border-top: hkey $panel;
        background: $surface;
    }
    SpacePanel #consent-line { height: auto; padding: 0 1; color: $warning; }
    SpacePanel #consent-line.-empty { display: none; }
    """

    def __init__(
        self,
        participants: Sequence[str],
        *,
        speaker: str | None = None,
        view: str | None = None,
        shared: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._participants = tuple(participants)
        self._speaker = speaker
        self._view = view
        self._shared = shared
        self._seats: tuple[Seat, ...] = ()
        self._waiting: tuple[tuple[str, str], ...] = ()
        self._statements: tuple[Statement, ...] = ()
        self._agenda: tuple[AgendaTopic, ...] = ()
        self._meter: str | None = None
        self._consents: tuple[ConsentRequest, ...] = ()

    def compose(self) -> ComposeResult:
        # one row each: side by side, a narrow chat (tree pane open) squeezed the speakers out
        yield SpeakerBar(self._participants, self._speaker, id="speaker-bar")
        yield AudienceBar(self._shared, id="audience-bar")
        yield ChannelTabs(self._participants, self._view, id="channel-tabs")
        yield SeatPresence(self._seats, id="seat-presence")
        yield Static(
            consent_line(self._consents), id="consent-line", classes="-empty", markup=False
        )
        box = StatementBox(id="statement-box")
        box.show_statements(self._statements, self._participants, None, self._agenda, self._meter)
        yield box

    @property
    def speaker_bar(self) -> SpeakerBar:
        return self.query_one("#speaker-bar", SpeakerBar)

    @property
    def audience_bar(self) -> AudienceBar:
        return self.query_one("#audience-bar", AudienceBar)

    @property
    def channel_tabs(self) -> ChannelTabs:
        return self.query_one("#channel-tabs", ChannelTabs)

    @property
    def presence(self) -> SeatPresence:
        return self.query_one("#seat-presence", SeatPresence)

    def show_seats(self, seats: Sequence[Seat], waiting: Sequence[tuple[str, str]] = ()) -> None:
        """Who of a served space is connected, and the messages waiting for their turn."""
        self._seats = tuple(seats)
        self._waiting = tuple(waiting)
        for presence in self.query(SeatPresence):  # none until the panel is composed
            presence.show_seats(seats, waiting)

    def show_statements(
        self,
        statements: Sequence[Statement],
        agenda: Sequence[AgendaTopic] = (),
        meter: str | None = None,
    ) -> None:
        """The space's statements as the shared channel reads them (who has answered, and
        what only where every participant has answered or its author shared it), its agenda,
        and the fairness meter (each person's share of the words; whose points the current
        statement reflects)."""
        self._statements = tuple(statements)
        self._agenda = tuple(agenda)
        self._meter = meter
        for box in self.query(StatementBox):  # none until the panel is composed
            box.show_statements(statements, self._participants, None, agenda, meter)

    def show_consents(self, waiting: Sequence[ConsentRequest]) -> None:
        """The posts waiting for a participant's consent (the facilitator reads them all)."""
        self._consents = tuple(waiting)
        for line in self.query("#consent-line").results(Static):
            line.set_class(not waiting, "-empty")
            line.update(consent_line(waiting))

    @property
    def consents(self) -> tuple[ConsentRequest, ...]:
        """The consent requests last shown."""
        return self._consents

    @property
    def meter(self) -> str | None:
        """The fairness meter's line last shown."""
        return self._meter

    @property
    def statements(self) -> tuple[Statement, ...]:
        """The statements last shown."""
        return self._statements

    @property
    def speaker(self) -> str | None:
        """The participant the next message is sent as."""
        return self.speaker_bar.speaker

    @property
    def shared(self) -> bool:
        """Whether the next message is said to everyone (else to the mediator only)."""
        return self.audience_bar.shared

    @property
    def view(self) -> str | None:
        """The view shown: ``None`` (everything), ``"shared"`` or a participant's name."""
        return self.channel_tabs.view

    def set_participants(
        self, names: Sequence[str], speaker: str | None = None, view: str | None = None
    ) -> None:
        """New participants (a space opened or renamed); posts nothing."""
        self._participants = tuple(names)
        self.speaker_bar.set_participants(names, speaker)
        self.channel_tabs.set_participants(names, view)

    def cycle_speaker(self, step: int = 1) -> None:
        """Speak as the next participant; posts ``SpeakerBar.SpeakerChanged``."""
        self.speaker_bar.cycle(step)

    def cycle_audience(self) -> None:
        """Switch between the mediator only and everyone; posts ``AudienceBar.AudienceChanged``."""
        self.audience_bar.cycle()

    def cycle_view(self, step: int = 1) -> None:
        """Show the next view; posts ``ChannelTabs.ViewChanged``."""
        self.channel_tabs.cycle(step)


def consent_line(waiting: Sequence[ConsentRequest]) -> str:
    """``Waiting for Sam's consent at their seat: ...`` for each post that waits."""
    return "\n".join(
        f"Waiting for {printable(r.participant)}'s consent at their seat: {printable(r.text)}"
        for r in waiting
    )
