"""The mediator's events: what a participant's message is.

A pydantic model with every field documented; the chat screen, the headless ``ask`` verb and
the demo all make a user record's meta through :meth:`UserMessageEvent.record_meta`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from agents.shared_space import SHARED as SHARED
from agents.speaker import message_name

if TYPE_CHECKING:  # the runtime's message type; imported where a message is made
    from langchain_core.messages import HumanMessage


class UserMessageEvent(BaseModel):
    """One participant said something in the space (a user record of the conversation)."""

    sender: str = Field(description="The participant who wrote the message, e.g. 'Alex'.")
    content: str = Field(description="What they wrote, as typed.")
    timestamp: datetime = Field(
        default_factory=lambda: datetime.now(UTC),
        description="When the message was sent (UTC).",
    )
    visibility: str | None = Field(
        default=None,
        description=(
            "Who may read it besides the mediator: 'shared' for everyone; None (the default) "
            "or the sender's own name for a message only the sender and the mediator see."
        ),
    )

    def to_message(self) -> HumanMessage:
        """The message as the model reads it: the words, the sender as the message ``name``
        (as the runtime's history sends it)."""
        from langchain_core.messages import HumanMessage

        return HumanMessage(content=self.content, name=message_name(self.sender))

    def record_meta(self) -> dict[str, Any]:
        """The user record's meta for this event."""
        return {"sender": self.sender, "visibility": self.visibility or self.sender}
