"""What a profile remembers for the user across conversations, listed so it can be forgotten.

``app.push_screen(RememberedScreen(memory, data_dir))`` lists the items a profile's
:class:`~agents.profile.RememberedItems` reads from the user's data folder (paper-pilot's
facts, each with the conversation it came from). Delete (or ``d``) forgets the highlighted item
after a confirmation; Esc closes. Reading and forgetting run on the items' own store, never in
the conversation.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from agents.profile import RememberedItem, RememberedItems
from storage.printable import printable
from weaver_tui.screens.confirm import ConfirmScreen


class RememberedScreen(ModalScreen[None]):
    """The remembered items, newest first; Delete forgets one (asks first)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("delete,d", "forget", "Forget"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down | Move between items. |
    | delete, d | Forget the highlighted item (asks first). |
    | escape | Close. |
    """

    DEFAULT_CSS = """
    RememberedScreen {
        align: center middle;
        background: $background 60%;
        & > #remembered-dialog {
            width: 100;
            max-width: 95%;
            height: auto;
            max-height: 90%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
        & #remembered-title { text-style: bold; margin: 1 0 0 0; }
        & #remembered-hint { color: $text-muted; margin-bottom: 1; }
        & OptionList { height: auto; max-height: 24; }
    }
    """

    def __init__(
        self,
        memory: RememberedItems,
        data_dir: Path,
        *,
        title_of: Callable[[str], str | None] = lambda conversation_id: None,
    ) -> None:
        """``title_of(conversation_id)``: that conversation's title (``None``: it is gone)."""
        super().__init__()
        self.memory = memory
        self.data_dir = data_dir
        self._title_of = title_of

    def compose(self) -> ComposeResult:
        with Vertical(id="remembered-dialog"):
            yield Label(self.memory.title, id="remembered-title", markup=False)
            yield Label(
                "Delete forgets the highlighted item · Esc closes",
                id="remembered-hint",
                markup=False,
            )
            yield OptionList(id="remembered-list")

    def on_mount(self) -> None:
        self.reload()
        self.query_one(OptionList).focus()

    def reload(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        items = self.memory.list_items(self.data_dir)
        if not items:
            options.add_option(Option(Text(self.memory.empty, style="dim"), disabled=True))
            return
        for item in items:
            line = Text(printable(item.text))  # remembered from a model's answer
            origin = self._origin(item)
            if origin:
                line.append(f"  {printable(origin)}", style="dim")
            options.add_option(Option(line, id=item.id))
        if highlighted is not None:
            options.highlighted = min(highlighted, options.option_count - 1)

    def _origin(self, item: RememberedItem) -> str:
        """Where ``item`` came from: its conversation's title, or that it was deleted."""
        if item.conversation_id is None:
            return item.origin
        title = self._title_of(item.conversation_id)
        return f"from “{title}”" if title else "from a deleted conversation"

    def action_forget(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        option = options.get_option_at_index(options.highlighted)
        if option.id is None:
            return
        item_id = option.id

        def answered(yes: bool | None) -> None:
            if yes and self.memory.forget(self.data_dir, item_id):
                self.notify("Forgotten.")
            self.reload()

        self.app.push_screen(ConfirmScreen("Forget this item?", "Forget"), answered)

    def action_close(self) -> None:
        self.dismiss(None)
