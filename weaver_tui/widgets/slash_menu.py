"""The slash-command menu over the composer: the commands that match what follows the ``/``,
one line each (``/name [hint]  what it does``), the chosen one highlighted.

It never takes the focus: the composer keeps it and hands the menu's keys (Up, Down, Tab,
Enter, Escape) to whoever drives it (:mod:`weaver_tui.screens.chat.slash_dispatch`). Hidden
while closed, so the chat's layout is unchanged until ``/`` is typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from agents.slash_commands import SlashCommand

MAX_ROWS = 8
"""The most commands shown at once (the chosen one always among them)."""


class SlashMenu(Static):
    """A list of commands with one chosen; shown by :meth:`offer`, hidden by :meth:`close`."""

    DEFAULT_CSS = """
    SlashMenu {
        display: none;
        height: auto;
        max-height: 10;
        padding: 0 1;
        border: round $accent 60%;
        background: $surface;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        &.-open { display: block; }
    }
    """

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.offered: tuple[SlashCommand, ...] = ()
        self.chosen_index = 0

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    @property
    def chosen(self) -> SlashCommand | None:
        return self.offered[self.chosen_index] if self.is_open and self.offered else None

    def offer(self, commands: Sequence[SlashCommand]) -> None:
        """Show ``commands`` (none: close), the first (the best match) chosen."""
        self.offered = tuple(commands)
        if not self.offered:
            self.close()
            return
        self.chosen_index = 0
        self.add_class("-open")
        self._draw()

    def move(self, delta: int) -> None:
        """Choose the next (``1``) or previous (``-1``) command, round the ends."""
        if self.offered:
            self.chosen_index = (self.chosen_index + delta) % len(self.offered)
            self._draw()

    def close(self) -> None:
        self.offered = ()
        self.chosen_index = 0
        self.remove_class("-open")

    def _draw(self) -> None:
        first = max(0, min(self.chosen_index - MAX_ROWS + 1, len(self.offered) - MAX_ROWS))
        text = Text()
        for index, command in enumerate(self.offered[first : first + MAX_ROWS]):
            if index:
                text.append("\n")
            chosen = first + index == self.chosen_index
            hint = f" [{command.hint}]" if command.hint else ""
            text.append(f"/{command.name}{hint}", style="bold reverse" if chosen else "bold")
            text.append(f"  {command.description}", style="dim" if not chosen else "")
        self.update(text)
