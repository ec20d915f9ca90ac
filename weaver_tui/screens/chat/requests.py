"""What the chat screen's pieces ask the screen to do, as Textual messages.

A piece posts one to the screen (``surface.post_message``) instead of calling back into it;
the screen's handler does what concerns more than one piece: starting a turn has to check that
none runs, fill the tree, redraw the path and clear the retry; opening a conversation has to
leave fork or edit mode and redraw everything. A message is handled after the handler that
posted it returns, so a piece never re-enters the screen half-way through its own work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from weaver_tui.screens.chat.turn_view import TurnOutcome


@dataclass
class AnswerRequested(Message):
    """Answer ``user_message_id`` again: regenerate, retry, or continue the reply
    ``continue_from`` (a new version that goes on from its text)."""

    user_message_id: str
    continue_from: str | None = None


@dataclass
class ResumeRequested(Message):
    """Resume the turn paused on record ``record_id`` (a patch waiting for review) with
    ``value``, the user's decision; ``user_message_id`` is the message that turn answers."""

    user_message_id: str
    record_id: str
    value: Any


@dataclass
class ConversationRequested(Message):
    """Show the conversation ``conversation_id`` (at ``message_id``, selected, if given)."""

    conversation_id: str
    message_id: str | None = None


@dataclass
class TurnEnded(Message):
    """The turn answering ``user_message_id`` ended: ``outcome`` says how."""

    user_message_id: str
    outcome: TurnOutcome


@dataclass
class HeaderStale(Message):
    """Something the header shows changed (the instructions, the title): redraw it."""
