"""The paper-pilot profile: research questions routed by intent to one of four strategies over
a knowledge base reached through MCP, checked by a critic, answered with cited sources."""

from __future__ import annotations

from pathlib import Path

from langchain_core.tools import BaseTool

from agents.profile import Profile
from agents.profiles.paper_pilot.graph import build_graph
from agents.profiles.paper_pilot.knowledge.sessions import warm_up
from agents.profiles.paper_pilot.offline import STEPS
from agents.profiles.paper_pilot.traits import TRAITS


def make_tools() -> list[BaseTool]:
    """None for the model to call: the graph's stages retrieve, the model reads and writes."""
    return []


PROFILE = Profile(
    name="paper-pilot",
    title=TRAITS.title,
    description=TRAITS.description,
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
    offline=STEPS,
    warm_up=warm_up,
)
