"""Going back to a message that has patches applied after it: conversation only, or
conversation and files (as a checkpoint restore offers both).

``app.push_screen(RestoreChoiceScreen(question), callback)``: the callback gets ``"files"``
(``f``, or the first button), ``"conversation"`` (``c``) or ``None`` (Esc, Cancel: nothing
happens). Enter presses the focused button, "Conversation only" at first: a stray Enter never
writes a file.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from storage.printable import printable

RestoreChoice = Literal["files", "conversation"]


class RestoreChoiceScreen(ModalScreen[RestoreChoice | None]):
    """Ask whether going back takes the files along; dismiss with the choice."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose(None)", "Cancel"),
        Binding("f", "choose('files')", "Conversation and files"),
        Binding("c", "choose('conversation')", "Conversation only"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | f | Go back in the conversation and revert the patches applied after the message. |
    | c | Go back in the conversation only; the files stay as they are. |
    | escape | Cancel. |
    """

    DEFAULT_CSS = """
    RestoreChoiceScreen {
        align: center middle;
        background: $background 60%;
        & > #restore-dialog {
            width: 72;
            max-width: 90%;
            height: auto;
            padding: 1 2;
            border: thick $primary 80%;
            background: $surface;
        }
        & #restore-question { width: 1fr; margin-bottom: 1; }
        & #restore-buttons { height: auto; align-horizontal: right; }
        & Button { margin-left: 1; }
    }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = printable(question)  # it names files

    def compose(self) -> ComposeResult:
        with Vertical(id="restore-dialog"):
            yield Label(self.question, id="restore-question", markup=False)
            with Horizontal(id="restore-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Conversation only", id="conversation", variant="primary")
                yield Button("Conversation and files", id="files", variant="warning")

    def on_mount(self) -> None:
        self.query_one("#conversation", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        chosen = event.button.id
        self.dismiss(chosen if chosen in ("files", "conversation") else None)  # type: ignore[arg-type]

    def action_choose(self, choice: RestoreChoice | None) -> None:
        self.dismiss(choice)
