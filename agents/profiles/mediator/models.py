"""The mediator's data: the event a participant's message is, and the actions it can take.

Seed 000's ``events.py`` and ``actions.py`` in one small module: pydantic models with every
field documented, and a discriminated union so a tool call parses into exactly one action.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

SHARED = "shared"
"""The visibility of what everyone in the space sees."""

REPLY_PRIVATELY = "reply_privately"
POST_TO_SHARED = "post_to_shared"


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
        """The message as the model reads it: ``[Alex]: text`` (as the runtime's history does)."""
        return HumanMessage(content=f"[{self.sender}]: {self.content}", name=self.sender)

    def record_meta(self) -> dict[str, Any]:
        """The user record's meta for this event."""
        return {"sender": self.sender, "visibility": self.visibility or self.sender}


class ReplyPrivately(BaseModel):
    """Send a message that only one participant (and the mediator) can read."""

    type: Literal["reply_privately"] = Field(
        default=REPLY_PRIVATELY, description="The action's kind; also the tool's name."
    )
    recipient: str = Field(description="The participant who receives it, e.g. 'Sam'.")
    content: str = Field(description="The message, addressed to the recipient.")


class PostToShared(BaseModel):
    """Post a message to the shared space, where every participant reads it."""

    type: Literal["post_to_shared"] = Field(
        default=POST_TO_SHARED, description="The action's kind; also the tool's name."
    )
    content: str = Field(description="The message for everyone in the space.")


MediatorAction = Annotated[ReplyPrivately | PostToShared, Field(discriminator="type")]
"""Any action the mediator can execute."""

ReplyPrivateAction = ReplyPrivately
PostToSharedAction = PostToShared
"""Seed 000's names for the same models."""

_ACTION = TypeAdapter(MediatorAction)


def action_from_tool_call(call: dict[str, Any]) -> ReplyPrivately | PostToShared | None:
    """The action a model's tool call asks for, or ``None`` for another tool or bad arguments."""
    try:
        return _ACTION.validate_python({**(call.get("args") or {}), "type": call.get("name")})
    except ValidationError:
        return None
