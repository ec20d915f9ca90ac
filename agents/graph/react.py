"""The agent ⇄ tools loop as one uncompiled ``StateGraph``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph

from agents.graph.agent_node import ANSWER_NODE, make_agent_node
from agents.graph.routing import should_continue
from agents.graph.state import AgentState
from agents.graph.tool_node import make_tool_node
from agents.profile import TurnContext


def build_react_graph(
    state_schema: type[Any] = AgentState,
    tools: Sequence[BaseTool] = (),
    *,
    tool_node_name: str = "tools",
    entry: str = ANSWER_NODE,
) -> StateGraph[Any, TurnContext, Any, Any]:
    """``START → agent → (tools → agent)* → END``; with no tools, just ``START → agent → END``.

    Returns the builder uncompiled so a profile can add nodes or edges before the runtime
    compiles it once with the checkpointer. ``entry`` names the first node: a profile with a
    stage before the agent (a router, say) passes its name, then adds that node and its edge
    to ``"agent"``.
    """
    builder = StateGraph(state_schema, context_schema=TurnContext)
    builder.add_node(ANSWER_NODE, make_agent_node(tools))
    builder.add_edge(START, entry)
    if tools:
        builder.add_node(tool_node_name, make_tool_node(tools, name=tool_node_name))
        builder.add_conditional_edges(
            ANSWER_NODE, should_continue, {"tools": tool_node_name, END: END}
        )
        builder.add_edge(tool_node_name, ANSWER_NODE)
    else:
        builder.add_edge(ANSWER_NODE, END)
    return builder
