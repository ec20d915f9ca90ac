"""A seat's composer: what a participant types or pastes becomes a message only as printable
text within the size limit, or not at all.

A seat's input comes from a browser or a terminal the host does not control: a paste may carry
escape sequences (OSC 52, a retitle, a screen clear) that would be stored and then drawn at the
host's and the other seats' screens, or megabytes that would be stored and sent to the model.
The guarantee, for every text from every route (a paste, typed keys, a submitted line):

- what is kept is :func:`storage.printable.printable` of it, on one line (a pasted line break
  becomes a space, so a paste is taken whole rather than cut at its first line);
- a message over ``max_bytes`` (UTF-8) is refused whole with one sentence: nothing is inserted
  or stored, and the seat keeps running.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from storage.printable import printable

DEFAULT_MAX_BYTES = 2_000_000
"""The default of the ``max_message_bytes`` setting."""


class MessageTooLarge(ValueError):
    """A message over the limit: ``str(exc)`` is the one sentence the seat shows."""


def too_large(max_bytes: int) -> MessageTooLarge:
    return MessageTooLarge(
        f"That is over the {max_bytes / 1e6:.2f} MB a message may hold (max_message_bytes): "
        "nothing was sent; paste the part that matters."
    )


def one_line(text: str) -> str:
    """``text`` as the composer keeps it: printable, line breaks as spaces."""
    return " ".join(printable(text).splitlines())


def seat_message(text: str, max_bytes: int) -> str:
    """The message a seat sends for ``text`` (empty: nothing to send); raises
    :class:`MessageTooLarge` over ``max_bytes``."""
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise too_large(max_bytes)  # refused before any copy of the whole text is made
    return one_line(text).strip()


class SeatComposer(Input):
    """The seat's one-line composer: a paste is cleaned whole, or refused whole. Its Enter is
    named in the seat's footer."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "Send")]

    def __init__(
        self, max_bytes: int = DEFAULT_MAX_BYTES, *, placeholder: str = "", id: str | None = None
    ) -> None:
        super().__init__(placeholder=placeholder, id=id)
        self.max_bytes = max_bytes

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()
        if not event.text:
            return
        room = self.max_bytes - len(self.value.encode("utf-8", "surrogatepass"))
        if len(event.text.encode("utf-8", "surrogatepass")) > room:
            self.app.notify(str(too_large(self.max_bytes)), severity="error")
            return
        line = one_line(event.text)
        selection = self.selection
        if selection.is_empty:
            self.insert_text_at_cursor(line)
        else:
            self.replace(line, *selection)
