"""Every key and command, grouped by where it works (F1).

``HelpScreen(entries)`` takes the keymap as data, so help can never disagree with the bindings:
either objects with ``scope``, ``key_display``, ``command`` and ``description`` (the app's
:class:`weaver_tui.keymap.KeyAction`) or plain ``(area, key, description)`` tuples. Areas are
shown in the order first seen; known scopes get readable titles. Esc, F1 or ``q`` close it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Protocol

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

AREA_TITLES: dict[str, str] = {
    "app": "Everywhere",
    "chat": "Chat",
    "tree": "Conversation tree",
    "messages": "Messages",
    "composer": "Composer",
    "tools": "Tool pane",
}


class KeyEntry(Protocol):
    """What the help screen reads from a keymap entry."""

    @property
    def scope(self) -> str: ...
    @property
    def key_display(self) -> str: ...
    @property
    def command(self) -> str: ...
    @property
    def description(self) -> str: ...


@dataclass(frozen=True, slots=True)
class HelpRow:
    """One line of help: where, which key, which command, what it does."""

    area: str
    key: str
    command: str
    description: str


def help_rows(entries: Iterable[KeyEntry | tuple[str, str, str]]) -> list[HelpRow]:
    rows = []
    for entry in entries:
        if isinstance(entry, tuple):
            area, key, description = entry
            rows.append(HelpRow(area, key, "", description))
        else:
            rows.append(HelpRow(entry.scope, entry.key_display, entry.command, entry.description))
    return rows


class HelpScreen(ModalScreen[None]):
    """A scrollable table of every binding, one section per area."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "close", "Close"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | escape, f1, q | Close help. |
    """

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        background: $background 60%;
        & > #help-dialog {
            width: 100;
            max-width: 95%;
            height: 90%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
        & #help-title { text-style: bold; width: 1fr; content-align: center middle; }
        & #help-body { height: 1fr; }
        & .help-area { text-style: bold; color: $accent; margin-top: 1; }
        & #help-footer { color: $text-muted; width: 1fr; content-align: center middle; }
    }
    """

    def __init__(self, entries: Iterable[KeyEntry | tuple[str, str, str]]) -> None:
        super().__init__()
        self.rows = help_rows(entries)

    def compose(self) -> ComposeResult:
        areas: dict[str, list[HelpRow]] = {}
        for row in self.rows:
            areas.setdefault(row.area, []).append(row)
        # the same column widths in every section, so the sections line up
        key_width = max((len(row.key) for row in self.rows), default=0)
        command_width = max((len(row.command) for row in self.rows), default=0)
        with Vertical(id="help-dialog"):
            yield Label("Keys and commands", id="help-title", markup=False)
            with VerticalScroll(id="help-body"):
                for area, rows in areas.items():
                    yield Label(
                        AREA_TITLES.get(area, area.title()), classes="help-area", markup=False
                    )
                    table = self._table(rows, key_width, command_width)
                    yield Static(table, classes="help-table", markup=False)
            yield Label(
                "Ctrl+P runs any command by name · Esc or F1 closes this help",
                id="help-footer",
                markup=False,
            )

    @staticmethod
    def _table(rows: list[HelpRow], key_width: int, command_width: int) -> Table:
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column("key", style="bold", no_wrap=True, min_width=max(key_width, 7))
        table.add_column("command", no_wrap=True, min_width=command_width)
        table.add_column("description", ratio=1)
        for row in rows:
            key = Text(row.key or "palette", style="" if row.key else "dim italic")
            table.add_row(key, row.command, Text(row.description, style="dim"))
        return table

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
