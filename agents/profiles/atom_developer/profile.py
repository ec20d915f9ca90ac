"""The atom-developer profile (interim: shared agent ⇄ tools loop with a static contract check)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph

from agents.graph import AgentState, build_react_graph
from agents.profile import Profile, TurnContext
from agents.profiles.atom_developer.commands import ATOM_COMMAND
from agents.profiles.atom_developer.tools import make_tools
from agents.profiles.atom_developer.traits import TRAITS


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    return build_react_graph(AgentState, profile.make_tools())


PROFILE = Profile(
    name="atom-developer",
    title="Atom Developer",
    description="Turns a log-parsing intent into checked atoms and a YAML spec.",
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
    commands=(ATOM_COMMAND,),
)
