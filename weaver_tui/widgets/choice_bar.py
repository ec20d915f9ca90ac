"""A one-line row of choices with one current: the base of the speaker bar and the channel tabs.

Lighter than ``Tabs`` + ``ContentSwitcher``: no content to switch, no underline animation, just
a prefix ("Speaking as:"), one clickable label per choice, and a dim key hint. The current
choice carries the ``-current`` class. Subclasses say what a choice means by overriding
:meth:`ChoiceBar.chosen`, which runs when the *user* picks (click, keys, :meth:`cycle`), never
when the screen sets the choices with :meth:`ChoiceBar.set_choices`, so setting state never
echoes back as an event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from storage.printable import printable


class Choice(Static):
    """One clickable label of a :class:`ChoiceBar`; ``index`` is its place in the row."""

    def __init__(self, label: str, index: int, *, classes: str = "") -> None:
        super().__init__(Content(label), id=f"choice-{index}", classes=classes, markup=False)
        self.index = index


class KeyHint(Static):
    """The bar's key hint, whole or not at all: "F8 switch audience" where it fits, else the
    key alone ("F8"), never a hint cut after its first words."""

    def __init__(self, hint: str, *, classes: str = "") -> None:
        super().__init__(classes=classes, markup=False)
        self.hint = hint

    def render(self) -> Content:
        width = self.content_region.width
        if len(self.hint) <= width:
            return Content(self.hint)
        key = self.hint.split(" ", 1)[0]
        return Content(key if len(key) <= width else "")


class ChoiceBar(Widget, can_focus=True):
    """``prefix`` then the choices (one ``-current``), then ``hint``; left/right move when focused."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cycle(-1)", "Previous", show=False),
        Binding("right", "cycle(1)", "Next", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | left | Pick the previous choice (wraps). |
    | right | Pick the next choice (wraps). |
    """

    DEFAULT_CSS = """
    ChoiceBar {
        layout: horizontal;
        height: 1;
        width: 1fr;
        padding: 0 1;
        & > .choice-prefix { width: auto; color: $text-muted; padding-right: 1; }
        & > Choice { width: auto; padding: 0 1; color: $text-muted; }
        & > Choice:hover { background: $boost; color: $text; }
        & > Choice.-current { color: $text; text-style: bold; background: $primary 25%; }
        & > .choice-hint { width: 1fr; content-align-horizontal: right; color: $text-disabled; }
        &:focus > Choice.-current { background: $primary 45%; }
    }
    """

    FOCUS_ON_CLICK: ClassVar[bool] = False
    """A click picks a choice but leaves the focus where it was (usually the composer)."""
    ALLOW_SELECT: ClassVar[bool] = False

    PREFIX: ClassVar[str] = ""
    """Text before the choices."""
    HINT: ClassVar[str] = ""
    """Dim key hint at the right end of the row."""

    def __init__(
        self,
        labels: Sequence[str] = (),
        current: int = 0,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._labels: tuple[str, ...] = tuple(labels)
        self._current = self._clamp(current)

    def compose(self) -> ComposeResult:
        yield Static(Content(self.PREFIX), classes="choice-prefix")
        for index, label in enumerate(self._labels):
            classes = " ".join(
                filter(None, [self.choice_classes(index), self._current_class(index)])
            )
            # a participant's name may come from an imported conversation
            yield Choice(printable(label), index, classes=classes)
        yield KeyHint(self.HINT, classes="choice-hint")

    @property
    def labels(self) -> tuple[str, ...]:
        return self._labels

    @property
    def current_index(self) -> int:
        """The index of the current choice (0 when there are none)."""
        return self._current

    def set_choices(self, labels: Sequence[str], current: int = 0) -> None:
        """Replace the choices and the current one; posts nothing."""
        self._labels = tuple(labels)
        self._current = self._clamp(current)
        if self.is_mounted:
            self.refresh(recompose=True)

    def select(self, index: int) -> None:
        """Make ``index`` current without posting (the screen setting state)."""
        self._current = self._clamp(index)
        for choice in self.query(Choice):
            choice.set_class(choice.index == self._current, "-current")

    def pick(self, index: int) -> None:
        """The user picked ``index``: make it current and tell the subclass (which posts)."""
        if not self._labels:
            return
        self.select(index)
        self.chosen(self._current)

    def cycle(self, step: int = 1) -> None:
        """Pick the next (or, with ``step=-1``, previous) choice, wrapping around."""
        if self._labels:
            self.pick((self._current + step) % len(self._labels))

    def action_cycle(self, step: int) -> None:
        self.cycle(step)

    def chosen(self, index: int) -> None:
        """Subclasses post their message here."""

    def choice_classes(self, index: int) -> str:
        """Extra classes for one choice's label (e.g. ``-private``)."""
        return ""

    def on_click(self, event: events.Click) -> None:
        if isinstance(event.widget, Choice) and event.widget.parent is self:
            event.stop()
            self.pick(event.widget.index)

    def _current_class(self, index: int) -> str:
        return "-current" if index == self._current else ""

    def _clamp(self, index: int) -> int:
        return min(max(index, 0), max(len(self._labels) - 1, 0))
