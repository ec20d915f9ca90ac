"""Choose a file to attach to the next message, with path completion as you type.

``app.push_screen(AttachFileScreen(root), callback)``: the callback gets the chosen path (a
file that exists; relative paths are read from ``root``), or ``None`` on Esc. The dropdown is
textual-autocomplete's ``PathAutoComplete``: folders first, Tab or Enter takes the highlighted
entry, Enter on a complete path attaches it.

The names in the dropdown are the project's (anyone's choice: a name can hold an escape
sequence, a bidi override, bytes that are not UTF-8): each is shown as
:func:`storage.printable.printable` of it (:class:`PrintablePathAutoComplete`), so no name
drives the terminal or draws in an order other than it reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label
from textual_autocomplete import DropdownItem, PathAutoComplete, TargetState

from storage.printable import printable


class PrintablePathAutoComplete(PathAutoComplete):
    """``PathAutoComplete`` whose every candidate is shown printable (see the module)."""

    def get_candidates(self, target_state: TargetState) -> list[DropdownItem]:
        return [
            DropdownItem(printable(item.main.plain), prefix=item.prefix)
            for item in super().get_candidates(target_state)
        ]


class AttachFileScreen(ModalScreen[Path | None]):
    """A path field with completion; Enter attaches the file it names."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """
    | Key(s) | Description |
    | :- | :- |
    | tab / enter (dropdown open) | Take the highlighted path. |
    | enter | Attach the file. |
    | escape | Attach nothing. |
    """

    DEFAULT_CSS = """
    AttachFileScreen {
        align: center middle;
        background: $background 60%;
        & > #attach-dialog {
            width: 80;
            max-width: 95%;
            height: auto;
            padding: 1 2;
            border: thick $primary 80%;
            background: $surface;
        }
        & #attach-hint { color: $text-muted; margin-top: 1; }
        & #attach-hint.-error { color: $error; }
    }
    """

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def compose(self) -> ComposeResult:
        with Vertical(id="attach-dialog"):
            shown = printable(str(self.root))
            yield Label(f"Attach a file (paths are read from {shown})", markup=False)
            field = Input(placeholder="path/to/file", id="attach-path")
            yield field
            yield PrintablePathAutoComplete(field, path=self.root)
            yield Label("Enter attaches · Esc cancels", id="attach-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted, "#attach-path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip()
        path = Path(typed).expanduser()
        path = path if path.is_absolute() else self.root / path
        if not typed or not path.is_file():
            hint = self.query_one("#attach-hint", Label)
            said = printable(typed) or "Nothing"
            hint.update(f"{said} is not a file here; type or pick a file's path.")
            hint.add_class("-error")
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
