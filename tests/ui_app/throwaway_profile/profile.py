"""The throwaway profile: a ``check`` stage, then the shared agent node."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph

from agents.graph import AgentState, build_react_graph, emit_status
from agents.profile import Profile, TurnContext
from tests.ui_app.throwaway_profile.traits import TRAITS


def check(state: AgentState) -> dict[str, Any]:
    emit_status("check", "the question", "done")
    return {}


def build_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    builder = build_react_graph(AgentState, profile.make_tools(), entry="check")
    builder.add_node("check", check)
    builder.add_edge("check", "agent")
    return builder


PROFILE = Profile(
    name="throwaway",
    title="Throwaway",
    description="Exists only in the tests.",
    prompt_file=Path(__file__).parent / "prompts" / "system.md",
    make_tools=list,
    build_graph=build_graph,
    traits=TRAITS,
)
