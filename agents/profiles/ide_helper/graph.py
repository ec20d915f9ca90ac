"""The ide-helper graph: the shared agent ⇄ tools loop with a review stop after tool rounds.

``START → agent → (tools → [review]* → agent)* → END``: after a tools round that proposed
patches, each one goes through the ``review`` node (a human decision via ``interrupt``)
before the agent sees the results.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from langgraph.graph import END, START, StateGraph

from agents.graph import ANSWER_NODE, make_agent_node, make_tool_node, should_continue
from agents.patch_review.review import REVIEW_NODE, review_node, route_after_tools
from agents.profile import Profile, TurnContext
from agents.profiles.ide_helper.state import IdeHelperState

TOOLS_NODE = "tools"


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    """The uncompiled graph; the runtime compiles it once with the checkpointer."""
    tools = profile.make_tools()
    builder = StateGraph(IdeHelperState, context_schema=TurnContext)
    builder.add_node(ANSWER_NODE, make_agent_node(tools))
    builder.add_node(TOOLS_NODE, make_tool_node(tools, name=TOOLS_NODE))
    builder.add_node(REVIEW_NODE, review_node)
    builder.add_edge(START, ANSWER_NODE)
    to_tools: dict[Hashable, str] = {"tools": TOOLS_NODE, END: END}
    builder.add_conditional_edges(ANSWER_NODE, should_continue, to_tools)
    after: dict[Hashable, str] = {REVIEW_NODE: REVIEW_NODE, ANSWER_NODE: ANSWER_NODE}
    builder.add_conditional_edges(TOOLS_NODE, route_after_tools, after)
    builder.add_conditional_edges(REVIEW_NODE, route_after_tools, after)
    return builder
