"""The research test profile: the shared agent ⇄ tools loop with a notes search."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph

from agents.graph import AgentState, build_react_graph
from agents.offline import OfflineTurn, PlannedCall, Reply
from agents.profile import Profile, TurnContext
from tests.support.research_profile.tools import make_tools
from tests.support.research_profile.traits import TRAITS

NAME = "researcher"


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    return build_react_graph(AgentState, profile.make_tools())


def search_then_quote(turn: OfflineTurn) -> Reply:
    """Offline: search the notes for the question, then quote what came back."""
    found = [r.content for r in turn.results]
    if found:
        return Reply(text="From the notes:\n\n" + "\n\n".join(found))
    return Reply(calls=(PlannedCall("search_knowledge_base", {"query": turn.user_text}),))


PROFILE = Profile(
    name=NAME,
    title="Researcher (tests)",
    description="Answers from notes with one search tool (a profile for the tests).",
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=make_tools,
    build_graph=build_graph,
    traits=TRAITS,
    offline={"agent": search_then_quote},
)
