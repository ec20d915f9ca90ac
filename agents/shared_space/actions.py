"""The mediator's actions: what a tool call asks it to do.

Pydantic models with every field documented, and a discriminated union so a tool call parses
into exactly one action.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from agents.shared_space.action_names import POST_TO_SHARED as POST_TO_SHARED
from agents.shared_space.action_names import PROPOSE_STATEMENT as PROPOSE_STATEMENT
from agents.shared_space.action_names import REPLY_PRIVATELY as REPLY_PRIVATELY
from agents.shared_space.action_names import REVISE_STATEMENT as REVISE_STATEMENT
from agents.shared_space.action_names import SET_AGENDA as SET_AGENDA


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
"""Longer names for the same models, kept for code that uses them."""

# ``cast``: depending on the installed stubs mypy reads ``Annotated[...]`` as a value here.
_ACTION: TypeAdapter[ReplyPrivately | PostToShared] = TypeAdapter(cast(Any, MediatorAction))


def action_from_tool_call(call: dict[str, Any]) -> ReplyPrivately | PostToShared | None:
    """The action a model's tool call asks for, or ``None`` for another tool or bad arguments."""
    try:
        return _ACTION.validate_python({**(call.get("args") or {}), "type": call.get("name")})
    except ValidationError:
        return None
