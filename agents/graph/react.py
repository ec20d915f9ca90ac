"""The agent ⇄ tools loop as one uncompiled ``StateGraph``, with hooks for a profile's own
agent node, its own route after the agent, and nodes that run between the tools and the agent
(a review of what the tools proposed, say)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph

from agents.graph.agent_node import ANSWER_NODE, make_agent_node
from agents.graph.routing import should_continue
from agents.graph.state import AgentState
from agents.graph.tool_node import make_tool_node
from agents.profile import TurnContext

Route = Callable[[Mapping[str, Any]], str]
"""A router: the state in, the name of the next node (or ``"__end__"``) out."""


def build_react_graph(
    state_schema: type[Any] = AgentState,
    tools: Sequence[BaseTool] = (),
    *,
    tool_node_name: str = "tools",
    entry: str = ANSWER_NODE,
    agent: Any = None,
    route_after_agent: Route = should_continue,
    after_tools: Route | None = None,
    between: Mapping[str, Any] | None = None,
) -> StateGraph[Any, TurnContext, Any, Any]:
    """``START → agent → (tools → agent)* → END``; with no tools, just ``START → agent → END``.

    Returns the builder uncompiled so a profile can add nodes or edges before the runtime
    compiles it once with the checkpointer. ``entry`` names the first node: a profile with a
    stage before the agent (a router, say) passes its name, then adds that node and its edge
    to ``"agent"``.

    The hooks: ``agent`` replaces the shared agent node (a profile's wrapper around
    :func:`make_agent_node`); ``route_after_agent`` decides between ``"tools"`` and the end;
    ``between`` adds nodes that sit between the tools and the agent, and ``after_tools``
    routes from the tools node and from each of those nodes to one of them or back to the
    agent (a patch review that pauses for every proposed patch, then lets the agent go on).
    """
    builder = StateGraph(state_schema, context_schema=TurnContext)
    builder.add_node(ANSWER_NODE, agent if agent is not None else make_agent_node(tools))
    builder.add_edge(START, entry)
    if not tools:
        builder.add_edge(ANSWER_NODE, END)
        return builder
    builder.add_node(tool_node_name, make_tool_node(tools, name=tool_node_name))
    to_tools: dict[Hashable, str] = {"tools": tool_node_name, END: END}
    builder.add_conditional_edges(ANSWER_NODE, route_after_agent, to_tools)
    if after_tools is None:
        builder.add_edge(tool_node_name, ANSWER_NODE)
        return builder
    extra = dict(between or {})
    for name, node in extra.items():
        builder.add_node(name, node)
    onward: dict[Hashable, str] = {ANSWER_NODE: ANSWER_NODE}
    onward.update({name: name for name in extra})
    for source in (tool_node_name, *extra):
        builder.add_conditional_edges(source, after_tools, onward)
    return builder
