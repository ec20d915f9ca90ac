"""The links of a served space, one ``NAME: URL`` line per participant, to send each person.

``app.push_screen(InviteScreen(lines))``: ↑/↓ choose a line, ``c`` (or Enter) copies it to the
clipboard (the terminal's, through OSC 52), Esc closes. Each link opens that participant's
seat and nobody else's; the palette's "Close shared space" revokes them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList

from storage.printable import printable


class InviteScreen(ModalScreen[None]):
    """The participants' links; see the module docstring."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy_line", "Copy link"),
        Binding("escape", "close", "Close"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | c, enter | Copy the chosen participant's line. |
    | escape | Close (the space stays served). |
    """

    DEFAULT_CSS = """
    InviteScreen {
        align: center middle;
        background: $background 60%;
        & > #invite-dialog {
            width: 96;
            max-width: 95%;
            height: auto;
            padding: 1 2;
            border: thick $primary 80%;
            background: $surface;
        }
        & #invite-links { height: auto; max-height: 12; margin: 1 0; }
        & .invite-hint { color: $text-muted; }
    }
    """

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = tuple(printable(line) for line in lines)

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-dialog"):
            yield Label("Invite participants: send each person their own line")
            yield OptionList(*self.lines, id="invite-links")
            yield Label(
                "c or Enter copies the chosen line · Esc closes (the space stays served)",
                classes="invite-hint",
            )
            yield Label(
                'Served on this machine only; "Close shared space" in the palette revokes '
                "the links.",
                classes="invite-hint",
            )

    def on_mount(self) -> None:
        links = self.query_one("#invite-links", OptionList)
        links.highlighted = 0
        links.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._copy(event.option_index)

    def action_copy_line(self) -> None:
        index = self.query_one("#invite-links", OptionList).highlighted
        if index is not None:
            self._copy(index)

    def _copy(self, index: int) -> None:
        line = self.lines[index]
        self.app.copy_to_clipboard(line)
        name = line.split(":", 1)[0]
        self.notify(f"Copied {name}'s link: send it to {name} only.")

    def action_close(self) -> None:
        self.dismiss(None)
