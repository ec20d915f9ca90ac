"""What the app needs to know to show paper-pilot: one user, no panel; each reply's badge is
its intent and strategy, and the tool pane names the graph's stages. Imports nothing but the
profile types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.profile import ProfileTraits


def reply_badge(meta: Mapping[str, Any]) -> str | None:
    """``comparative · rewoo``: the intent the router saw and the strategy that answered."""
    trace = meta.get("paper_pilot")
    if not isinstance(trace, Mapping) or not trace.get("intent"):
        return None
    return f"{trace['intent']} · {trace.get('strategy')}"


TRAITS = ProfileTraits(
    stages={
        "load_memory": "memory",
        "route": "router",
        "slot_fill": "slot filling",
        "direct": "direct",
        "plan": "plan",
        "execute_step": "plan-and-execute",
        "replan": "replan",
        "rewoo": "ReWOO",
        "react": "ReAct",
        "synthesize": "synthesis",
        "critic": "critic",
        "retry": "retry",
        "web_fallback": "web search",
        "save_memory": "memory",
    },
    reply_badge=reply_badge,
)
