"""The whole output of one tool call, scrollable (Enter or a click on a tool-pane row).

``app.push_screen(ToolOutputScreen("list_files", output))``. The tool pane folds a result to
its first lines; this shows every line. Esc, ``q`` or Enter close it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class ToolOutputScreen(ModalScreen[None]):
    """Every line of a tool's output, with its name and line count as the title."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "Close"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down, page up / page down, home / end | Scroll. |
    | escape, q, enter | Close. |
    """

    DEFAULT_CSS = """
    ToolOutputScreen {
        align: center middle;
        background: $background 60%;
        & > #tool-output-dialog {
            width: 100;
            max-width: 95%;
            height: 90%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
        & #tool-output-title { text-style: bold; width: 1fr; }
        & #tool-output-body { height: 1fr; }
        & #tool-output-footer { color: $text-muted; width: 1fr; content-align: center middle; }
    }
    """

    def __init__(self, name: str, output: str) -> None:
        super().__init__()
        self.tool_name = name
        self.output = output

    def compose(self) -> ComposeResult:
        count = len(self.output.splitlines())
        noun = "line" if count == 1 else "lines"
        with Vertical(id="tool-output-dialog"):
            yield Label(f"{self.tool_name} · {count} {noun}", id="tool-output-title", markup=False)
            with VerticalScroll(id="tool-output-body"):
                yield Static(self.output, id="tool-output-text", markup=False)
            yield Label("↑ ↓ PgUp PgDn scroll · Esc closes", id="tool-output-footer", markup=False)

    def on_mount(self) -> None:
        self.query_one("#tool-output-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
