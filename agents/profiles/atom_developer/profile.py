"""The atom-developer profile: a log-parsing intent becomes checked atom functions and their
YAML spec, through draft → validate (AST, sandboxed contract run, twin consistency) → reflect,
with a safe stub when the fixes run out."""

from __future__ import annotations

from pathlib import Path

from langchain_core.tools import BaseTool

from agents.profile import Profile
from agents.profiles.atom_developer.graph import build_graph
from agents.profiles.atom_developer.offline import STEPS
from agents.profiles.atom_developer.traits import TRAITS


def make_tools() -> list[BaseTool]:
    """None for the model to call: the graph validates every draft itself."""
    return []


PROFILE = Profile(
    name="atom-developer",
    title=TRAITS.title,
    description=TRAITS.description,
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
    offline=STEPS,
)
