"""The ide-helper profile: ask about a project's code, get answers citing file:line, and
review the patches it proposes before anything is written."""

from __future__ import annotations

from pathlib import Path

from agents.profile import Profile
from agents.profiles.ide_helper.graph import build_graph
from agents.profiles.ide_helper.offline import STEPS
from agents.profiles.ide_helper.tools import make_tools
from agents.profiles.ide_helper.traits import TRAITS

PROFILE = Profile(
    name="ide-helper",
    title=TRAITS.title,
    description=TRAITS.description,
    prompt_file=Path(__file__).parent / "prompts" / "ide-helper.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
    offline=STEPS,
)
