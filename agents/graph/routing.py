"""The router of the agent ⇄ tools loop: to the tools while the model asks for any, else end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.messages import AIMessage


def should_continue(state: Mapping[str, Any]) -> Literal["tools", "__end__"]:
    """Go to the tools when the model's last message asked for any (even with broken
    arguments), else end the turn."""
    messages = state.get("messages") or []
    if messages:
        last = messages[-1]
        if isinstance(last, AIMessage) and (last.tool_calls or last.invalid_tool_calls):
            return "tools"  # broken calls too: the tools node answers them with an error
    return "__end__"  # langgraph's END
