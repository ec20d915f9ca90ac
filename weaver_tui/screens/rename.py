"""A one-field dialog for a new conversation title.

``app.push_screen(RenameScreen(conversation.title), callback)``: the callback gets the new
title (stripped, never empty), or ``None`` when the user cancels with Esc or leaves it blank.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from storage.printable import printable
from weaver_tui.widgets.inline_bindings import OrderedInput

TITLE_MAX_LENGTH = 120


class RenameScreen(ModalScreen[str | None]):
    """Edit ``current``; Enter keeps the new title, Esc keeps the old one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Save the new title. |
    | escape | Cancel. |
    """

    DEFAULT_CSS = """
    RenameScreen {
        align: center middle;
        background: $background 60%;
        & > #rename-dialog {
            width: 70;
            max-width: 90%;
            height: auto;
            padding: 1 2;
            border: thick $primary 80%;
            background: $surface;
        }
        & #rename-hint { color: $text-muted; margin-top: 1; }
    }
    """

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = printable(current)

    def compose(self) -> ComposeResult:
        with Vertical(id="rename-dialog"):
            yield Label("Rename conversation")
            yield OrderedInput(
                self.current,
                placeholder="Title",
                max_length=TITLE_MAX_LENGTH,
                select_on_focus=True,
                id="rename-input",
            )
            yield Label("Enter to save · Esc to cancel", id="rename-hint", markup=False)

    @on(Input.Submitted, "#rename-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        title = " ".join(event.value.split())
        self.dismiss(title or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
