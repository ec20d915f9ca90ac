"""The quintet profile: the shared agent node with no tools; offline, it greets with the
greeting its settings hold and repeats the user's words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph

from agents.graph import AgentState, build_react_graph
from agents.offline import OfflineTurn, Reply
from agents.profile import Profile, TurnContext
from tests.support.quintet_profile.traits import NAME, TRAITS


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    return build_react_graph(AgentState, profile.make_tools())


def greet(turn: OfflineTurn) -> Reply:
    settings = getattr(turn.context, "settings", None) or {}
    own = settings.get("quintet") or {}
    return Reply(text=f"{own.get('greeting', 'Hello')}: {turn.user_text}")


PROFILE = Profile(
    name=NAME,
    title=TRAITS.title,
    description=TRAITS.description,
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=list,
    build_graph=build_graph,
    traits=TRAITS,
    offline={"agent": greet},
)
