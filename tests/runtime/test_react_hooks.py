"""The shared ReAct builder's hooks: a profile's own agent node and router, and nodes between
the tools and the agent, run by the real runtime against the local OpenAI-compatible server."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import StateGraph
from langgraph.runtime import Runtime

import agents.graph.react as react
import agents.profile_registry as registry
from agents.graph import AgentState, build_react_graph, emit_status, make_agent_node
from agents.profile import Profile, TurnContext
from agents.profile_registry import get_profile
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import NodeStatus, ToolFinished
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.research_profile.profile import PROFILE as RESEARCH
from tests.support.research_profile.tools import make_tools


async def _check(state: Mapping[str, Any]) -> dict[str, Any]:
    """Stamps the last tool result once, as a review would settle it."""
    last = state["messages"][-1]
    emit_status("check", f"checked {last.name}", "done")
    return {"messages": [last.model_copy(update={"content": f"checked: {last.content}"})]}


def _after_tools(state: Mapping[str, Any]) -> str:
    last = state["messages"][-1]
    unchecked = isinstance(last, ToolMessage) and not str(last.content).startswith("checked:")
    return "check" if unchecked else "agent"


def _hooked_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    tools = profile.make_tools()
    shared = make_agent_node(tools)

    async def agent(
        state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[TurnContext]
    ) -> dict[str, Any]:
        emit_status("agent", "own agent node", "done")
        update: dict[str, Any] = await shared(state, config, runtime)
        return update

    def route_after_agent(state: Mapping[str, Any]) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else "__end__"

    return build_react_graph(
        AgentState,
        tools,
        agent=agent,
        route_after_agent=route_after_agent,
        after_tools=_after_tools,
        between={"check": _check},
    )


@pytest.fixture
def hooked_profile(monkeypatch: pytest.MonkeyPatch) -> str:
    profile = Profile(
        name="hooked-test",
        title="Hooked",
        description="the shared loop with every hook",
        prompt_file=RESEARCH.prompt_file,
        make_tools=make_tools,
        build_graph=_hooked_graph,
    )
    monkeypatch.setitem(registry._loaded, profile.name, profile)
    return profile.name


async def test_a_node_between_the_tools_and_the_agent_sees_each_round_before_the_agent(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    hooked_profile: str,
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "otters"}, id="c1")]),
        Reply("Otters hold hands."),
    )
    user = new_turn(store, hooked_profile, "tell me about otters")

    events = await run(runtime, user, openai_model(), profile=hooked_profile)

    statuses = [(s.node, s.text) for s in of_type(events, NodeStatus)]
    assert statuses == [
        ("agent", "own agent node"),
        ("check", "checked search_knowledge_base"),
        ("agent", "own agent node"),
    ]
    assert len(of_type(events, ToolFinished)) == 1
    second_request = (fake_openai.chat_requests[-1].body or {})["messages"]
    tool_results = [m for m in second_request if m["role"] == "tool"]
    assert str(tool_results[0]["content"]).startswith("checked: ")
    assert store.get_message(finish_of(events).leaf_id).content == "Otters hold hands."


@pytest.mark.parametrize(
    ("profile", "nodes"),
    [
        ("mediator", {"agent", "tools"}),
        ("ide-helper", {"agent", "tools", "review"}),
    ],
)
def test_the_profiles_with_an_agent_loop_are_built_by_the_shared_builder(
    profile: str, nodes: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[str] = []
    original = react.build_react_graph

    def spy(*args: Any, **kwargs: Any) -> StateGraph[Any, TurnContext, Any, Any]:
        built.append(profile)
        return original(*args, **kwargs)

    monkeypatch.setattr(react, "build_react_graph", spy)
    chosen = get_profile(profile)
    module = importlib.import_module(chosen.build_graph.__module__)
    monkeypatch.setattr(module, "build_react_graph", spy, raising=False)

    builder = chosen.build_graph(chosen)

    assert built == [profile]
    assert set(builder.nodes) == nodes
