"""The router of the agent ⇄ tools loop: to the tools while the model asks for any, else end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.messages import AIMessage


def should_continue(state: Mapping[str, Any]) -> Literal["tools", "__end__"]:
    """Go to the tools when the model's last message asked for any, else end the turn."""
    messages = state.get("messages") or []
    if messages:
        last = messages[-1]
        if isinstance(last, AIMessage) and last.tool_calls:
            return "tools"
    return "__end__"  # langgraph's END
