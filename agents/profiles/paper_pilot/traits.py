"""What the app needs to know to show paper-pilot: one user, no panel; each reply's badge is
its intent and strategy, and the tool pane names the graph's stages; ``weaver-tui kb`` and
``weaver-tui memory`` are its verbs. Imports nothing but the profile types."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.profile import (
    ProfileKey,
    ProfileSettings,
    ProfileTraits,
    ProfileVerb,
    RememberedItem,
    RememberedItems,
)

SETTLED_BADGES = frozenset({"partly supported", "not in your notes", "from the web"})
"""How an answer settled that its badge names (``checked`` is the draft's own mark)."""


def reply_badge(meta: Mapping[str, Any]) -> str | None:
    """``comparative · rewoo``: the intent the router saw and the strategy that answered;
    then ``partly supported``, ``not in your notes`` or ``from the web`` when it settled so,
    else ``unchecked`` when no critic checked the answer and the draft's own mark
    (``meta["check"]``) does not say so already."""
    trace = meta.get("paper_pilot")
    if not isinstance(trace, Mapping) or not trace.get("strategy"):
        return None
    badge = f"{trace.get('intent') or 'no intent'} · {trace.get('strategy')}"
    if trace.get("settled") in SETTLED_BADGES:
        return f"{badge} · {trace['settled']}"
    said = isinstance(meta.get("check"), Mapping)
    return badge + " · unchecked" if trace.get("unchecked") and not said else badge


def reply_trace(meta: Mapping[str, Any]) -> str | None:
    """The reply's trace as Markdown (:mod:`.trace_view`), read when it is opened."""
    from agents.profiles.paper_pilot.trace_view import trace_markdown

    return trace_markdown(meta)


def reply_stages(meta: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The stages of the reply's trace, in order (none when it has no trace)."""
    trace = meta.get("paper_pilot")
    stages = trace.get("stages") if isinstance(trace, Mapping) else None
    return [s for s in stages if isinstance(s, Mapping)] if isinstance(stages, list) else []


def remembered_facts(data_dir: Path) -> list[RememberedItem]:
    """The facts paper-pilot remembers, newest first, each with the conversation it came from."""
    from agents.profiles.paper_pilot.memory import open_memory

    with open_memory(data_dir) as memory:
        return [
            RememberedItem(
                str(f.id),
                f.text,
                f"from conversation {f.conversation_id[:8]}",
                conversation_id=f.conversation_id,
            )
            for f in memory.all()
        ]


def forget_fact(data_dir: Path, item_id: str) -> bool:
    from agents.profiles.paper_pilot.memory import open_memory

    if not item_id.isdigit():
        return False
    with open_memory(data_dir) as memory:
        return memory.forget(int(item_id))


WELCOME = (
    "Ask a research question: the answer comes from your knowledge base (scripts/run kb add "
    "DIR adds documents) with numbered citations a critic has checked. Facts you learn are "
    'remembered across conversations (palette: "Remembered items").'
)

KB_KEY = ProfileKey(
    command="Knowledge base",
    description="paper-pilot: the collections your research questions are answered from",
    handler="agents.profiles.paper_pilot.kb_key:knowledge_base",
    slash="kb",
)

KB_VERB = ProfileVerb(
    name="kb",
    help="the paper-pilot knowledge base: add a folder, list collections",
    handler="agents.profiles.paper_pilot.commands:KB_COMMAND",
)
MEMORY_VERB = ProfileVerb(
    name="memory",
    help="what paper-pilot remembers across conversations: list, forget ID",
    handler="agents.profiles.paper_pilot.commands:MEMORY_COMMAND",
)

TRAITS = ProfileTraits(
    title="Paper Pilot",
    description="Research questions answered from a knowledge base, with cited sources.",
    welcome=WELCOME,
    continue_reply=False,
    stages={
        "load_memory": "memory",
        "route": "router",
        "scope": "collections",
        "slot_fill": "slot filling",
        "direct": "direct",
        "plan": "plan",
        "execute_step": "plan-and-execute",
        "replan": "replan",
        "rewoo": "ReWOO",
        "react": "ReAct",
        "synthesize": "synthesis",
        "critic": "critic",
        "audit": "citation audit",
        "revise": "revise",
        "retry": "retry",
        "web_fallback": "web search",
        "save_memory": "memory",
    },
    reply_badge=reply_badge,
    reply_trace=reply_trace,
    reply_stages=reply_stages,
    memory=RememberedItems(
        "Facts paper-pilot remembers",
        remembered_facts,
        forget_fact,
        "Nothing is remembered yet: facts are kept from answers the critic passed.",
    ),
    commands=(KB_VERB, MEMORY_VERB),
    keys=(KB_KEY,),
    settings=ProfileSettings(
        section="paper_pilot",
        model="agents.profiles.paper_pilot.settings_section:PaperPilotSettings",
    ),
)
