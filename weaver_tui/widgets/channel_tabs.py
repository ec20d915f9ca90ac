"""Which channel of a mediator space the chat shows: everything, the shared one, or one person's.

The model sees every record; each participant may see only what is shared, what was sent to
them privately, and what they said. The tabs read
"All | Shared | Alex | Sam"; picking one (click, ``F3`` / left /
right while focused, or :meth:`ChannelTabs.cycle` from the chat screen's own binding) posts
:class:`ChannelTabs.ViewChanged` whose ``view`` is ``None`` (everything), ``"shared"``, or a
participant's name. The chat screen then shows
``weaver_tui.profile_panels.items_for_view(records, view, participants, items)``.

API: ``ChannelTabs(participants, view)``, :meth:`ChannelTabs.set_participants` (posts
nothing), :attr:`ChannelTabs.view`, :meth:`ChannelTabs.set_view`, :meth:`ChannelTabs.cycle`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from weaver_tui.keymap import VIEW_KEY
from weaver_tui.widgets.choice_bar import ChoiceBar

SHARED_VIEW = "shared"
"""The view of what every participant sees (the same word as the records' visibility)."""


def view_label(view: str | None) -> str:
    """The tab text of a view: "All" (what the mediator reads: every record), "Shared", or a
    participant's name. Short, so a space of four fits beside the tree and the tool pane."""
    if view is None:
        return "All"
    if view == SHARED_VIEW:
        return "Shared"
    return view


class ChannelTabs(ChoiceBar):
    """One tab per view of the space; private views are marked in the ``$private`` colour."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(VIEW_KEY, "cycle(1)", "Next view", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | f3 | Show the next view (wraps). |
    | left, right | Previous / next view. |
    """

    DEFAULT_CSS = """
    ChannelTabs > Choice.-private { color: $private 80%; }
    ChannelTabs > Choice.-current { color: $text; background: $accent 25%; }
    ChannelTabs > Choice.-private.-current { color: $private; background: $private 20%; }
    ChannelTabs:focus > Choice.-current { background: $accent 40%; }
    ChannelTabs:focus > Choice.-private.-current { background: $private 35%; }
    """

    PREFIX = "View:"
    HINT = "F3 switch view"

    class ViewChanged(Message):
        """The user picked a view: ``None`` (everything), ``"shared"`` or a participant."""

        def __init__(self, channel_tabs: ChannelTabs, view: str | None) -> None:
            super().__init__()
            self.channel_tabs = channel_tabs
            self.view = view

        @property
        def control(self) -> ChannelTabs:
            return self.channel_tabs

    def __init__(
        self,
        participants: Sequence[str] = (),
        view: str | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self._views: tuple[str | None, ...] = _views_of(participants)
        labels = [view_label(v) for v in self._views]
        super().__init__(labels, _index_of(self._views, view), id=id, classes=classes)

    @property
    def views(self) -> tuple[str | None, ...]:
        """Every view in tab order: ``None``, ``"shared"``, then the participants."""
        return self._views

    @property
    def view(self) -> str | None:
        """The view shown now."""
        return self._views[self.current_index]

    def set_participants(self, names: Sequence[str], view: str | None = None) -> None:
        """One tab per participant; ``view`` becomes current (default: keep it if it still
        exists, else the model view). Posts nothing."""
        keep = view if view is not None else self.view
        self._views = _views_of(names)
        self.set_choices([view_label(v) for v in self._views], _index_of(self._views, keep))

    def set_view(self, view: str | None) -> None:
        """Show ``view`` as current without posting (an unknown one shows the model view)."""
        self.select(_index_of(self._views, view))

    def chosen(self, index: int) -> None:
        self.post_message(self.ViewChanged(self, self._views[index]))

    def choice_classes(self, index: int) -> str:
        return "-private" if index >= 2 else ""


def _views_of(participants: Sequence[str]) -> tuple[str | None, ...]:
    return (None, SHARED_VIEW, *participants)


def _index_of(views: Sequence[str | None], view: str | None) -> int:
    return views.index(view) if view in views else 0
