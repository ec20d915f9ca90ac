"""Shared LangGraph building blocks every profile composes.

``agent`` node with bound tools and the tool-round limit, ``should_continue`` router,
a ``ToolNode`` that reports each call on the custom stream, and ``build_react_graph`` that
wires them into the agent ⇄ tools loop. Profiles with more stages add their own nodes and
report stage lines with :func:`emit_status`.
"""

from agents.graph.agent_node import (
    ANSWER_NODE,
    FINAL_ANSWER_INSTRUCTION,
    make_agent_node,
    tool_rounds_this_turn,
)
from agents.graph.react import build_react_graph
from agents.graph.routing import should_continue
from agents.graph.state import AgentState
from agents.graph.status import STATUS_KEY, emit_status
from agents.graph.tool_node import TOOL_EVENT_KEY, make_tool_node

__all__ = [
    "ANSWER_NODE",
    "FINAL_ANSWER_INSTRUCTION",
    "STATUS_KEY",
    "TOOL_EVENT_KEY",
    "AgentState",
    "build_react_graph",
    "emit_status",
    "make_agent_node",
    "make_tool_node",
    "should_continue",
    "tool_rounds_this_turn",
]
