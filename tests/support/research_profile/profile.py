"""The research test profile: the shared agent ⇄ tools loop with a notes search."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph

from agents.graph import AgentState, build_react_graph
from agents.profile import Profile, TurnContext
from tests.support.research_profile.tools import make_tools
from tests.support.research_profile.traits import TRAITS

NAME = "researcher"


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    return build_react_graph(AgentState, profile.make_tools())


PROFILE = Profile(
    name=NAME,
    title="Researcher (tests)",
    description="Answers from notes with one search tool (a profile for the tests).",
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
)
