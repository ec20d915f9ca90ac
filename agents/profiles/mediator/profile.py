"""The mediator profile: a neutral mediator in a space of named participants, speaking
privately to one person or to everyone through its tools."""

from __future__ import annotations

from agents.profile import Profile
from agents.profiles.mediator.graph import PROMPT_FILE, build_graph
from agents.profiles.mediator.offline import STEPS
from agents.profiles.mediator.tools import make_tools
from agents.profiles.mediator.traits import TRAITS

PROFILE = Profile(
    name="mediator",
    title=TRAITS.title,
    description=TRAITS.description,
    prompt_file=PROMPT_FILE,
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
    offline=STEPS,
)
