"""The composer: where the user writes the next message.

A :class:`~textual.widgets.TextArea` in which Enter sends (posting :class:`Composer.Submitted`)
and a line break is Ctrl+J, which every terminal can send, or Shift+Enter where the terminal
reports it (kitty keyboard protocol, recent xterm/foot/WezTerm). The border title says who is
speaking (the mediator profile has several speakers); the subtitle says what sending will do
when it is not a plain reply ("editing message: sends a new version", "forking from ...").

Up in an empty composer recalls the prompts sent before, newest first, as a shell does (Down
goes back toward the draft); ``history_source`` gives them (the chat screen reads the store:
the prompts sent to the current profile). Typing into a recalled prompt makes it a draft.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import TextArea

from storage.printable import printable
from weaver_tui.widgets.inline_bindings import run_own_binding

NEWLINE_KEYS = frozenset({"ctrl+j", "shift+enter", "newline"})
"""Keys that insert a line break instead of sending."""


class Composer(TextArea):
    """The message editor at the bottom of the chat.

    | Key | What it does |
    | :- | :- |
    | Enter | Send the message (ignored when it is only whitespace). |
    | Ctrl+J / Shift+Enter | Insert a line break. |
    | Up / Down (empty, or in a recalled prompt's first / last line) | Older / newer prompts. |
    | Tab (after ``@part``) | Complete the file path to attach. |
    """

    DEFAULT_CSS = """
    Composer {
        height: auto;
        min-height: 3;
        max-height: 12;
        border: round $primary 40%;
        border-title-color: $user;
        border-subtitle-color: $accent;
        padding: 0 1;
        background: $surface;
        &:focus {
            border: round $primary;
        }
        &.-busy {
            border-subtitle-color: $text-muted;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+j", "newline", "New line", show=False),
    ]

    speaker: reactive[str] = reactive("You")
    """Who is speaking; shown in the border title (mediator lets the user switch it)."""

    hint: reactive[str] = reactive("")
    """What sending will do when it is not a plain reply; shown in the border subtitle."""

    @dataclass
    class Submitted(Message):
        """The user pressed Enter on a non-empty message."""

        composer: Composer
        text: str
        speaker: str

        @property
        def control(self) -> Composer:
            return self.composer

    def __init__(
        self,
        *,
        placeholder: str = "Write a message (Enter sends, Ctrl+J new line)",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(
            "",
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            highlight_cursor_line=False,
            placeholder=placeholder,
            id=id,
            classes=classes,
        )

    history_source: Callable[[], list[str]] | None = None
    """The prompts Up recalls, newest first (read when browsing starts)."""
    complete_source: Callable[[str], str | None] | None = None
    """What Tab adds after the text before the cursor (an ``@`` path's rest), if anything."""
    key_filter: Callable[[str], bool] | None = None
    """Sees each key first; ``True`` takes it (the slash-command menu's Up, Tab, Enter ...)."""

    def on_mount(self) -> None:
        self._show_titles()
        self._history: list[str] = []
        self._recalled = -1
        """The index of the prompt shown from the history; -1 when not browsing."""
        self._recalled_text = ""

    def watch_speaker(self) -> None:
        self._show_titles()

    def watch_hint(self) -> None:
        self._show_titles()

    def _show_titles(self) -> None:
        self.border_title = self.speaker
        self.border_subtitle = self.hint

    async def _on_key(self, event: events.Key) -> None:
        if self.key_filter is not None and self.key_filter(event.key):
            event.stop()
            event.prevent_default()
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.submit()
            return
        if event.key in NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.action_newline()
            return
        if event.key == "tab" and self._complete():
            event.stop()
            event.prevent_default()
            return
        if event.key in ("up", "down") and self._browse(event.key == "up"):
            event.stop()
            event.prevent_default()
            return
        if await run_own_binding(self, event):  # Backspace, Ctrl+U, arrows ... in key order
            return
        await super()._on_key(event)

    def _complete(self) -> bool:
        """Complete the ``@`` path before the cursor; ``False``: Tab moves the focus."""
        if self.complete_source is None or self.selection.start != self.selection.end:
            return False
        row, column = self.cursor_location
        addition = self.complete_source(self.document.get_line(row)[:column])
        if not addition:
            return False
        self.insert(addition)
        return True

    def _browse(self, older: bool) -> bool:
        """Show the next older (or newer) prompt; ``False`` leaves the key to the editor."""
        browsing = self._recalled >= 0 and self.text == self._recalled_text
        row = self.cursor_location[0]
        if not browsing:
            self._recalled = -1
            if not older or self.text or self.history_source is None:
                return False
            self._history = self.history_source()
        elif row != (0 if older else self.document.line_count - 1):
            return False  # move within the recalled prompt first
        step = self._recalled + (1 if older else -1)
        if step >= len(self._history):
            return browsing  # the oldest is shown: nothing further back
        self._recalled = step
        self._recalled_text = self._history[step] if step >= 0 else ""
        self.load_text(self._recalled_text)
        self.move_cursor(self.document.end)
        return True

    max_bytes: int = 2_000_000
    """The largest message the composer takes (the ``max_message_bytes`` setting)."""

    async def _on_paste(self, event: events.Paste) -> None:
        """A paste that would make the message too big is refused whole, with a sentence
        (a 50 MB paste must not reach the editor: its document alone would take gigabytes)."""
        # Characters never outnumber UTF-8 bytes: a long paste is refused without encoding it.
        size = len(event.text)
        if size <= self.max_bytes:
            size = len(event.text.encode("utf-8", errors="surrogateescape"))
        if size + len(self.text) > self.max_bytes:
            event.stop()
            event.prevent_default()
            self.notify(
                f"That paste is {size / 1e6:.2f} MB; a message may be at most "
                f"{self.max_bytes / 1e6:.2f} MB (max_message_bytes). Paste the part that matters.",
                severity="error",
            )
            return
        await super()._on_paste(event)
        event.prevent_default()  # Textual would run TextArea's handler too: a second copy

    def action_newline(self) -> None:
        """Insert a line break at the cursor (replacing any selection)."""
        start, end = self.selection
        self._replace_via_keyboard("\n", start, end)

    def submit(self) -> None:
        """Post :class:`Submitted` with the text, and clear the editor."""
        text = self.text.strip("\n")
        if not text.strip():
            return
        self.post_message(self.Submitted(self, text, self.speaker))
        self.clear()

    def load_text(self, text: str) -> None:
        """Replace the editor's content with ``text`` as it is printable: what is loaded may be
        a provider's reply or an imported message ("Edit message"), or a recalled prompt, and
        the editor draws its document as it is, so an escape sequence in it would reach the
        terminal (:func:`storage.printable.printable`)."""
        super().load_text(printable(text))

    def set_draft(self, text: str) -> None:
        """Replace the editor's content (used by "Edit message") and put the cursor at the end."""
        self.load_text(text)
        self.move_cursor(self.document.end)
        self.focus()
