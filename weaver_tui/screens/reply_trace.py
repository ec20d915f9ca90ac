"""A reply's trace, opened from the palette ("Reply trace") or its key on the selected reply:
what the profile's :attr:`~agents.profile.ProfileTraits.reply_trace` reads from the record
(paper-pilot: its stages with timings and models, queries, chunks, verdicts, the citation
audit per sentence). Esc closes."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from storage.printable import printable


class ReplyTraceScreen(ModalScreen[None]):
    """The trace of one reply, as Markdown, scrolled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down, page up / page down | Scroll. |
    | escape, q | Close. |
    """

    DEFAULT_CSS = """
    ReplyTraceScreen {
        align: center middle;
        background: $background 60%;
        & > #reply-trace {
            width: 110;
            max-width: 95%;
            height: 90%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
    }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = printable(text)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="reply-trace"):
            yield Markdown(self.text, id="reply-trace-text")

    def action_close(self) -> None:
        self.dismiss(None)
