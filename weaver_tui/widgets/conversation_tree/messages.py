"""What the conversation tree asks of its owner (it never touches storage itself).

Each is a dataclass message with a ``control`` property: the tree widget that posted it. They are exposed as
``ConversationTree.CheckoutRequested`` etc. and handled as ``on_conversation_tree_<name>``
(the ``namespace`` gives them the same handler names as classes nested in the widget).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.widget import Widget


@dataclass
class CheckoutRequested(Message, namespace="conversation_tree"):
    """Show the path root → ``message_id`` → its remembered leaf in the chat."""

    tree: Widget
    """The conversation tree that asks."""
    message_id: str

    @property
    def control(self) -> Widget:
        return self.tree


@dataclass
class ForkRequested(Message, namespace="conversation_tree"):
    """The next message the user sends becomes a new child of ``message_id``."""

    tree: Widget
    """The conversation tree that asks."""
    message_id: str

    @property
    def control(self) -> Widget:
        return self.tree


@dataclass
class EditRequested(Message, namespace="conversation_tree"):
    """Open user message ``message_id`` in the composer; sending makes a sibling version."""

    tree: Widget
    """The conversation tree that asks."""
    message_id: str

    @property
    def control(self) -> Widget:
        return self.tree


@dataclass
class RegenerateRequested(Message, namespace="conversation_tree"):
    """Run the turn of ``user_message_id`` again; the new reply becomes its child.

    ``message_id`` is the record the user chose (an assistant reply, or the user message).
    """

    tree: Widget
    """The conversation tree that asks."""
    message_id: str
    user_message_id: str

    @property
    def control(self) -> Widget:
        return self.tree


@dataclass
class DeleteRequested(Message, namespace="conversation_tree"):
    """Delete ``message_id`` and its descendants (the chat screen confirms first)."""

    tree: Widget
    """The conversation tree that asks."""
    message_id: str

    @property
    def control(self) -> Widget:
        return self.tree


@dataclass
class VersionFlipRequested(Message, namespace="conversation_tree"):
    """Show the sibling ``delta`` versions away from ``message_id`` (``[`` / ``]``): the chat
    switches to root → that version → its remembered leaf, as a checkout of it would."""

    tree: Widget
    """The conversation tree that asks."""
    message_id: str
    delta: int

    @property
    def control(self) -> Widget:
        return self.tree
