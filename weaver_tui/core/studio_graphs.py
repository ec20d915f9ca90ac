"""Each profile's graph for LangGraph's own tools: ``langgraph dev`` and LangGraph Studio.

``langgraph.json`` (at the repository root) names the graphs below. A profile's graph reads
its turn's facts (the model, the conversation store, the system prompt) from the
:class:`~agents.profile.TurnContext` the runtime passes it; Studio has no runtime, so each
graph here wraps the profile's own compiled graph in a one-node graph that builds that context
from the user's settings (the configured provider and data folder, as ``weaver-tui`` reads
them) and runs the profile's graph as a subgraph: Studio streams its nodes, and a pause (the
ide-helper's patch review) is an interrupt Studio can resume.

Tools that write to the tree (the mediator's shared space, say) write into a conversation of
the data folder's store made for the Studio thread, titled "LangGraph Studio thread".
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agents.profile import Profile, TurnContext
from agents.profile_registry import PROFILE_NAMES, get_profile
from weaver_tui.core.services import Services

logger = logging.getLogger(__name__)

THREAD_META = "studio_thread"
THREAD_TITLE = "LangGraph Studio thread"


@cache
def _services() -> Services:
    """The user's settings and store, read once per ``langgraph dev`` process."""
    from weaver_tui.core.settings.config import load_settings

    return Services(load_settings())


def _conversation_id(services: Services, profile: Profile, thread_id: str) -> str:
    """The store's conversation for a Studio thread, made on the thread's first run."""
    store = services.store
    for conversation in store.list_conversations(profile.name):
        if conversation.meta.get(THREAD_META) == thread_id:
            return conversation.id
    meta = {THREAD_META: thread_id, "project_root": str(Path.cwd())}
    return store.create_conversation(profile.name, THREAD_TITLE, meta=meta).id


def turn_context(profile: Profile, config: RunnableConfig) -> TurnContext:
    """What the runtime would pass a turn of ``profile``, from the user's settings."""
    services = _services()
    settings = services.settings
    thread_id = str((config.get("configurable") or {}).get("thread_id") or "studio")
    return TurnContext(
        model=services.model.for_profile(profile),
        conversation_id=_conversation_id(services, profile, thread_id),
        user_message_id="",
        store=services.store,
        system_prompt=profile.system_prompt(services.config_dir),
        project_root=Path.cwd(),
        max_tool_rounds=settings.turns.max_tool_rounds,
        data_dir=services.data_dir,
        settings=settings.profile_settings(),
        tool_seconds=settings.turns.tool_seconds,
        tool_result_chars=settings.turns.tool_result_chars,
    )


def studio_graph(name: str) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The profile ``name``'s graph, runnable without weaver-tui's runtime."""
    profile = get_profile(name)
    inner = profile.build_graph(profile).compile(name=name)

    async def run_profile(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        result = await inner.ainvoke(
            {"messages": state["messages"]}, config, context=turn_context(profile, config)
        )
        return {"messages": result["messages"]}

    outer = StateGraph(MessagesState)
    outer.add_node(name, run_profile)
    outer.add_edge(START, name)
    outer.add_edge(name, END)
    return outer.compile(name=f"weaver-tui {name}")


def variable_name(profile: str) -> str:
    """The module variable ``langgraph.json`` names for a profile (``ide-helper``: ``ide_helper``)."""
    return profile.replace("-", "_")


# One compiled graph per registered profile, as the LangGraph CLI loads them (module variables).
globals().update({variable_name(name): studio_graph(name) for name in PROFILE_NAMES})
