"""A profile's own panel above the composer: the lines the profile computes
(:attr:`agents.profile.ProfileTraits.panel_lines`), shown as plain text."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import Static

from storage.printable import printable

MAX_LINES = 6
"""At most this many lines are shown (the panel sits above the composer)."""


class ProfileLines(Static):
    """The lines of a profile's panel; what a profile gives is shown as text, never markup."""

    DEFAULT_CSS = """
    ProfileLines {
        height: auto;
        max-height: 6;
        padding: 0 1;
        color: $text-muted;
    }
    """

    def __init__(self) -> None:
        super().__init__("", markup=False)
        self.lines: tuple[str, ...] = ()

    def set_lines(self, lines: Sequence[str]) -> None:
        shown = tuple(printable(str(line)).replace("\n", " ") for line in lines[:MAX_LINES])
        if shown != self.lines:
            self.lines = shown
            self.update("\n".join(shown))
