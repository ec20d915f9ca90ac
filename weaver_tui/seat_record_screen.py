"""A participant's own copy of the space's record, shown at their seat (F4).

The record (:func:`agents.shared_space.record.space_record`) is read for the seat's participant
only: what was agreed and what is open, plus their own private exchange with the mediator and
their own answers; nothing another person said privately. Esc closes it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class SeatRecordScreen(ModalScreen[None]):
    """The record as Markdown, scrollable."""

    DEFAULT_CSS = """
    SeatRecordScreen { align: center middle; }
    SeatRecordScreen > VerticalScroll {
        width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", "Close")]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Markdown(self.markdown), id="record", markup=False)
        yield Footer()
