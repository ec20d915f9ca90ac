"""App-level Textual messages: what the turn worker and screens tell each other.

Widget-local messages live in their widget (``Composer.Submitted``,
``MessageView.ActionRequested``); the ones here cross screen boundaries or carry runtime facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class TokensArrived(Message):
    """New answer text waits in the chat screen's token buffer for ``message_id``.

    The turn worker posts one only when the buffer goes from empty to non-empty, and the
    handler drains everything buffered by then, so however fast tokens arrive, at most one of
    these is queued per message: the keyboard's messages never wait behind a token backlog.
    ``can_replace`` also merges a queued duplicate, should one slip through.
    """

    message_id: str

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TokensArrived) and message.message_id == self.message_id


@dataclass
class PathChanged(Message):
    """Something changed what the active path shows (a mark on a message, a summary): the
    chat screen redraws the path, selecting ``select`` if given."""

    select: str | None = None


@dataclass
class ContextWindowKnown(Message):
    """A server told the context window of its model: the chat screen counts again."""
