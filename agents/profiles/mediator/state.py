"""``SpaceState``: the mediator graph's state, and what each field holds.

A ``TypedDict`` (the form LangGraph merges per key) whose fields carry their documentation as pydantic
``Field(description=...)`` metadata; the reducer stays the last ``Annotated`` item, where
LangGraph looks for it.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import Field


class SpaceState(TypedDict):
    """State of one mediator turn (one participant's message and the mediator's actions)."""

    messages: Annotated[
        list[AnyMessage],
        Field(
            description=(
                "The conversation path the model sees (every participant's messages, shared "
                "and private, tagged '[Name]: '), plus this turn's AI and tool messages."
            )
        ),
        add_messages,
    ]
    input: NotRequired[
        Annotated[
            list[AnyMessage],
            Field(description="This turn's input: the participant's message being answered."),
        ]
    ]
    action_to_execute: NotRequired[
        Annotated[
            list[dict[str, Any]] | None,
            Field(
                description=(
                    "The actions the model chose in its last step (ReplyPrivately / "
                    "PostToShared as dicts, other tool calls as raw calls); None when it "
                    "is done and the turn ends."
                )
            ),
        ]
    ]
    tool_output: NotRequired[
        Annotated[
            str | None,
            Field(description="What the last round of actions returned, one line per action."),
        ]
    ]
    steps: NotRequired[
        Annotated[
            list[dict[str, Any]],
            Field(
                description=(
                    "Every executed action with its observation "
                    "({'action': ..., 'observation': ...}), accumulated over the turn."
                )
            ),
            operator.add,
        ]
    ]
