"""A yes/no question before an action: deleting a branch or a chat, overwriting or saving files.

``app.push_screen(ConfirmScreen("Delete this branch?", "Delete"), callback)``: the callback
gets ``True`` only when the user confirms; Esc, ``n`` and the cancel button give ``False``.
Each question has its own default, the button Enter presses: Cancel for an action that
deletes or overwrites (a stray Enter never does either), the action itself for one that only
adds (``enter_confirms=True``: saving new files, where Esc still cancels).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from storage.printable import printable


class ConfirmScreen(ModalScreen[bool]):
    """Ask ``question``; dismiss with whether the user confirmed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", "Cancel"),
        Binding("y", "answer(True)", "Confirm"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | y | Confirm. |
    | n, escape | Cancel. |
    | enter | Press the focused button (Cancel at first, unless the action only adds). |
    """

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
        background: $background 60%;
        & > #confirm-dialog {
            width: 60;
            max-width: 90%;
            height: auto;
            padding: 1 2;
            border: thick $error 80%;
            background: $surface;
        }
        & #confirm-question { width: 1fr; margin-bottom: 1; }
        & #confirm-buttons { height: auto; align-horizontal: right; }
        & Button { margin-left: 2; }
        &.-adds > #confirm-dialog { border: thick $primary 80%; }
    }
    """

    def __init__(
        self, question: str, confirm_label: str = "Delete", *, enter_confirms: bool = False
    ) -> None:
        super().__init__(classes="-adds" if enter_confirms else "")
        self.question = printable(question)  # it may quote a title or a message
        self.confirm_label = confirm_label
        self.enter_confirms = enter_confirms
        """Whether Enter confirms at first (an action that deletes or overwrites nothing)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Label(self.question, id="confirm-question", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(
                    self.confirm_label,
                    variant="primary" if self.enter_confirms else "error",
                    id="confirm",
                )

    def on_mount(self) -> None:
        self.query_one("#confirm" if self.enter_confirms else "#cancel", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
