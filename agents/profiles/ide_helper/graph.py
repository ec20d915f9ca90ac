"""The ide-helper graph: the shared agent ⇄ tools loop with a review stop after tool rounds.

``START → agent → (tools → [review]* → agent)* → END``: after a tools round that proposed
patches, each one goes through the ``review`` node (a human decision via ``interrupt``)
before the agent sees the results.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import StateGraph

from agents.graph import build_react_graph
from agents.patch_review.review import REVIEW_NODE, review_node, route_after_tools
from agents.profile import Profile, TurnContext
from agents.profiles.ide_helper.state import IdeHelperState

TOOLS_NODE = "tools"


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    """The uncompiled graph; the runtime compiles it once with the checkpointer."""
    return build_react_graph(
        IdeHelperState,
        profile.make_tools(),
        tool_node_name=TOOLS_NODE,
        after_tools=route_after_tools,
        between={REVIEW_NODE: review_node},
    )
