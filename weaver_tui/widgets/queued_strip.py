"""The strip under the running reply that lists the messages waiting for their turn.

One row per held message (its first line, shortened), the border title saying what happens
to them (sent when the reply ends, or paused after a stop). Selecting a row (Enter, click)
puts its message back into the composer (:class:`QueuedStrip.Edit`); Delete drops it
(:class:`QueuedStrip.Drop`). The strip holds nothing itself: the screen's queue owns the
messages and calls :meth:`QueuedStrip.show` with what it holds; empty, the strip is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from storage.printable import printable
from weaver_tui.core.prompt_queue import HeldPrompt

ROW_CHARACTERS = 100
"""How much of a held message's first line a row shows."""


def row_text(text: str) -> str:
    """A held message as one short, printable row."""
    lines = text.strip().splitlines() or [""]
    first = printable(lines[0])
    more = len(lines) > 1 or len(first) > ROW_CHARACTERS
    return first[:ROW_CHARACTERS] + (" …" if more else "")


class QueuedStrip(OptionList):
    """The held messages, in the order they will be sent."""

    DEFAULT_CSS = """
    QueuedStrip {
        height: auto;
        max-height: 6;
        border: round $accent 50%;
        border-title-color: $text-muted;
        padding: 0 1;
        display: none;
        &.-held {
            display: block;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("delete,backspace,x", "drop", "Drop queued message", show=False),
    ]

    @dataclass
    class Edit(Message):
        """Put the held message ``key`` back into the composer."""

        key: int

    @dataclass
    class Drop(Message):
        """Drop the held message ``key``."""

        key: int

    def show(self, held: Sequence[HeldPrompt], sentence: str) -> None:
        """Show ``held`` (hidden when empty) under ``sentence``."""
        self.clear_options()
        self.add_options([Option(row_text(p.text), id=str(p.key)) for p in held])
        self.border_title = f"Queued ({len(held)})"
        self.border_subtitle = sentence
        self.set_class(bool(held), "-held")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Edit(int(event.option.id)))

    def action_drop(self) -> None:
        index = self.highlighted
        if index is None:
            return
        option = self.get_option_at_index(index)
        if option.id is not None:
            self.post_message(self.Drop(int(option.id)))
