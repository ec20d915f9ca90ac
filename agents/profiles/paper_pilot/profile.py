"""The paper-pilot profile (interim: shared agent ⇄ tools loop with a knowledge-base search)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph

from agents.graph import AgentState, build_react_graph
from agents.profile import Profile, TurnContext
from agents.profiles.paper_pilot.tools import make_tools
from agents.profiles.paper_pilot.traits import TRAITS


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    return build_react_graph(AgentState, profile.make_tools())


PROFILE = Profile(
    name="paper-pilot",
    title="Paper Pilot",
    description="Research questions answered from a knowledge base, with cited notes.",
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
)
