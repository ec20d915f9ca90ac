"""Who is speaking in a mediator space, and to whom: "Speaking as: [Alex] Sam", "to: [the
mediator only] everyone", each switched by key or click.

A mediator conversation is one space shared by named participants, so every message the
composer sends belongs to someone. This bar shows the participants with the current speaker
highlighted; a click on a name, ``F2`` / left / right while it has focus, or
:meth:`SpeakerBar.cycle` (what the chat screen's own ``F2`` binding calls, since the composer
usually has the focus) picks another, and the bar posts :class:`SpeakerBar.SpeakerChanged`.

API: ``SpeakerBar(participants, current)``, :meth:`SpeakerBar.set_participants` (posts
nothing), :attr:`SpeakerBar.speaker`, :meth:`SpeakerBar.cycle`. Handle
``on_speaker_bar_speaker_changed`` and send the next user message with
``meta={"sender": event.name, ...}``.

A participant's words are private to them and the mediator unless they say them to everyone
(the space's rule: a user record's ``visibility`` is the sender's name or ``"shared"``).
:class:`AudienceBar` is that choice: ``F8`` or a click, posting
:class:`AudienceBar.AudienceChanged`; :attr:`AudienceBar.shared` says which it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from weaver_tui.keymap import AUDIENCE_KEY, SPEAKER_KEY
from weaver_tui.widgets.choice_bar import ChoiceBar

AUDIENCES = ("the mediator only", "everyone")
"""The audience choices, private first."""


class SpeakerBar(ChoiceBar):
    """The participants of the space, the current speaker highlighted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(SPEAKER_KEY, "cycle(1)", "Next speaker", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | f2 | Speak as the next participant (wraps). |
    | left, right | Previous / next participant. |
    """

    DEFAULT_CSS = """
    SpeakerBar > Choice.-current { color: $user; background: $user 20%; }
    SpeakerBar:focus > Choice.-current { background: $user 35%; }
    """

    PREFIX = "Speaking as:"
    HINT = "F2 switch speaker"

    class SpeakerChanged(Message):
        """The user picked another speaker; ``name`` is the participant now speaking."""

        def __init__(self, speaker_bar: SpeakerBar, name: str) -> None:
            super().__init__()
            self.speaker_bar = speaker_bar
            self.name = name

        @property
        def control(self) -> SpeakerBar:
            return self.speaker_bar

    def __init__(
        self,
        participants: Sequence[str] = (),
        current: str | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        names = tuple(participants)
        super().__init__(names, _index_of(names, current), id=id, classes=classes)

    @property
    def participants(self) -> tuple[str, ...]:
        return self.labels

    @property
    def speaker(self) -> str | None:
        """The participant speaking now (``None`` when the space has nobody yet)."""
        return self.labels[self.current_index] if self.labels else None

    def set_participants(self, names: Sequence[str], current: str | None = None) -> None:
        """Show ``names`` with ``current`` speaking (default: keep the speaker, else the first)."""
        names = tuple(names)
        keep = current if current is not None else self.speaker
        self.set_choices(names, _index_of(names, keep))

    def set_speaker(self, name: str) -> None:
        """Make ``name`` the speaker without posting (e.g. after reopening a conversation)."""
        self.select(_index_of(self.labels, name))

    def chosen(self, index: int) -> None:
        self.post_message(self.SpeakerChanged(self, self.labels[index]))


def _index_of(names: Sequence[str], name: str | None) -> int:
    return names.index(name) if name in names else 0


class AudienceBar(ChoiceBar):
    """Whether the speaker's next message goes to the mediator only or to everyone."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(AUDIENCE_KEY, "cycle(1)", "Switch audience", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | f8 | Switch between the mediator only and everyone. |
    | left, right | The same, while the bar has the focus. |
    """

    DEFAULT_CSS = """
    AudienceBar > Choice.-current { color: $private; background: $private 20%; }
    AudienceBar > Choice.-shared.-current { color: $text; background: $accent 25%; }
    """

    PREFIX = "to:"
    HINT = "F8 switch audience"

    class AudienceChanged(Message):
        """The user switched audience; ``shared`` is ``True`` for everyone."""

        def __init__(self, audience_bar: AudienceBar, shared: bool) -> None:
            super().__init__()
            self.audience_bar = audience_bar
            self.shared = shared

        @property
        def control(self) -> AudienceBar:
            return self.audience_bar

    def __init__(
        self,
        shared: bool = False,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(AUDIENCES, int(shared), id=id, classes=classes)

    @property
    def shared(self) -> bool:
        """Whether the next message is said to everyone (else to the mediator only)."""
        return self.current_index == 1

    def set_shared(self, shared: bool) -> None:
        """Set the audience without posting."""
        self.select(int(shared))

    def chosen(self, index: int) -> None:
        self.post_message(self.AudienceChanged(self, index == 1))

    def choice_classes(self, index: int) -> str:
        return "-shared" if index == 1 else ""
