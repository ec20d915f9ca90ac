"""What the conversation tree asks of its owner (it never touches storage itself).

Every request is a :class:`Request`: a dataclass message carrying the tree that posted it
(``tree``, also its ``control``) and the message the user chose (``message_id``), so an owner
can handle all six in one place (``@on(ConversationTree.Request)``) or each by its own name.
They are exposed as ``ConversationTree.CheckoutRequested`` etc. and handled as
``on_conversation_tree_<name>`` (the ``namespace`` gives them the same handler names as
classes nested in the widget).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.widget import Widget


@dataclass
class Request(Message, namespace="conversation_tree"):
    """A request about one message of the tree (the base of the six below)."""

    tree: Widget
    """The conversation tree that asks."""
    message_id: str
    """The message under the tree's cursor when the key was pressed."""

    @property
    def control(self) -> Widget:
        return self.tree


@dataclass
class CheckoutRequested(Request, namespace="conversation_tree"):
    """Show the path root → ``message_id`` → its remembered leaf in the chat."""


@dataclass
class ForkRequested(Request, namespace="conversation_tree"):
    """The next message the user sends becomes a new child of ``message_id``."""


@dataclass
class EditRequested(Request, namespace="conversation_tree"):
    """Open user message ``message_id`` in the composer; sending makes a sibling version."""


@dataclass
class RegenerateRequested(Request, namespace="conversation_tree"):
    """Run the turn of ``user_message_id`` again; the new reply becomes its child.

    ``message_id`` is the record the user chose (an assistant reply, or the user message).
    """

    user_message_id: str


@dataclass
class DeleteRequested(Request, namespace="conversation_tree"):
    """Delete ``message_id`` and its descendants (the chat screen confirms first)."""


@dataclass
class VersionFlipRequested(Request, namespace="conversation_tree"):
    """Show the sibling ``delta`` versions away from ``message_id`` (``[`` / ``]``): the chat
    switches to root → that version → its remembered leaf, as a checkout of it would."""

    delta: int
