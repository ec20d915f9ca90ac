"""The smallest graph state a profile can have: the message list, merged by ``add_messages``."""

from __future__ import annotations

from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages


class AgentState(TypedDict):
    """State of the shared agent ⇄ tools loop.

    ``messages`` holds the context window of the conversation path, the new user message, and
    every AI and tool message the turn adds; ``add_messages`` appends (and replaces by id).
    Profiles extend this TypedDict with their own fields.
    """

    messages: Annotated[list[AnyMessage], add_messages]
