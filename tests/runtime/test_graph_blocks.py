"""The shared blocks inside a profile with its own stages: status lines and internal LLM calls."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langgraph.graph import StateGraph
from langgraph.prebuilt import ToolRuntime
from langgraph.runtime import Runtime

import agents.profile_registry as registry
from agents.graph import AgentState, build_react_graph, emit_status, should_continue
from agents.graph.agent_node import tool_rounds_this_turn
from agents.profile import Profile, TurnContext
from agents.profile_registry import PROFILE_NAMES, UnknownProfileError, get_profile, list_profiles
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import NodeStatus, RunError, RunFinished, TokenDelta, ToolFinished
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.research_profile.profile import PROFILE as RESEARCH
from tests.support.research_profile.tools import make_tools

RESEARCH_PROMPT = RESEARCH.prompt_file


async def _router(state: AgentState, runtime: Runtime[TurnContext]) -> dict[str, Any]:
    """An internal stage: asks the model to classify (its tokens are not the answer)."""
    emit_status("router", "Classifying the question ...")
    verdict = await runtime.context.model.ainvoke(
        [HumanMessage("classify: " + state["messages"][-1].text)]
    )
    emit_status("router", f"Intent: {verdict.content}", "done")
    return {}


def _staged_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
    builder = build_react_graph(AgentState, profile.make_tools(), entry="router")
    builder.add_node("router", _router)
    builder.add_edge("router", "agent")
    return builder


@pytest.fixture
def staged_profile(monkeypatch: pytest.MonkeyPatch) -> str:
    profile = Profile(
        name="staged-test",
        title="Staged",
        description="test profile with a router stage",
        prompt_file=RESEARCH_PROMPT,
        make_tools=make_tools,
        build_graph=_staged_graph,
    )
    monkeypatch.setitem(registry._loaded, profile.name, profile)
    return profile.name


async def test_stage_lines_become_node_status_and_internal_tokens_stay_out(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    staged_profile: str,
) -> None:
    fake_openai.script(Reply("lookup"), Reply("The real answer."))
    user = new_turn(store, staged_profile, "What is RRF?")

    events = await run(runtime, user, openai_model(), profile=staged_profile)

    assert [(s.node, s.text, s.state) for s in of_type(events, NodeStatus)] == [
        ("router", "Classifying the question ...", "running"),
        ("router", "Intent: lookup", "done"),
    ]
    assert "".join(t.text for t in of_type(events, TokenDelta)) == "The real answer."
    assert isinstance(events[-1], RunFinished)
    assert store.get_message(events[-1].leaf_id).content == "The real answer."


def test_graph_is_compiled_once_per_profile(runtime: AgentRuntime) -> None:
    profile = get_profile("paper-pilot")
    assert runtime.graph_for(profile) is runtime.graph_for(profile)


def test_registry_has_exactly_the_four_profiles() -> None:
    assert PROFILE_NAMES == ("mediator", "ide-helper", "paper-pilot", "atom-developer")
    names = {p.name for p in list_profiles()}
    assert {"paper-pilot", "atom-developer"} <= names <= set(PROFILE_NAMES)
    with pytest.raises(UnknownProfileError, match="choose one of"):
        get_profile("ide_helper")


def test_should_continue_and_round_counting() -> None:
    from langchain_core.messages import AIMessage

    call = AIMessage("", tool_calls=[{"id": "1", "name": "t", "args": {}}])
    assert should_continue({"messages": [HumanMessage("q"), call]}) == "tools"
    assert should_continue({"messages": [HumanMessage("q"), AIMessage("done")]}) == "__end__"
    assert tool_rounds_this_turn([call, HumanMessage("q"), call, call]) == 2


@tool
async def summarize(text: str, runtime: ToolRuntime[Any]) -> str:
    """Summarise ``text`` with the turn's model (an LLM call inside a tool)."""
    summary = await runtime.context.model.ainvoke([HumanMessage(f"summarise: {text}")])
    return f"summary: {summary.content}"


@pytest.fixture
def summarizing_profile(monkeypatch: pytest.MonkeyPatch) -> str:
    profile = Profile(
        name="summarize-test",
        title="Summarize",
        description="a tool that calls the model",
        prompt_file=RESEARCH_PROMPT,
        make_tools=lambda: [summarize],
        build_graph=lambda p: build_react_graph(AgentState, p.make_tools()),
    )
    monkeypatch.setitem(registry._loaded, profile.name, profile)
    return profile.name


# langchain-core dumps a tool's validated input, injected ``ToolRuntime`` included, and
# pydantic warns that ``context`` is not ``None`` (the unparameterised ``ToolRuntime``); harmless.
@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")
async def test_tokens_of_an_llm_call_inside_a_tool_are_not_the_answer(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    summarizing_profile: str,
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("summarize", {"text": "a long text"}, id="call_sum")]),
        Reply(deltas=["inner ", "summary"]),
        Reply(deltas=["Final ", "answer."]),
    )
    user = new_turn(store, summarizing_profile, "summarise it")

    events = await run(runtime, user, openai_model(), profile=summarizing_profile)

    assert "".join(t.text for t in of_type(events, TokenDelta)) == "Final answer."
    (finished,) = of_type(events, ToolFinished)
    assert finished.output == "summary: inner summary"
    assert store.get_message(finish_of(events).leaf_id).content == "Final answer."


async def _broken_router(state: Mapping[str, Any]) -> dict[str, Any]:
    raise KeyError("intent")


async def test_a_bug_in_a_node_is_a_run_error_with_one_sentence(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    openai_model: Callable[..., ChatModelHandle],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken_graph(profile: Profile) -> StateGraph[Any, TurnContext, Any, Any]:
        builder = build_react_graph(AgentState, profile.make_tools(), entry="router")
        builder.add_node("router", _broken_router)
        builder.add_edge("router", "agent")
        return builder

    profile = Profile(
        name="broken-test",
        title="Broken",
        description="a node that raises",
        prompt_file=RESEARCH_PROMPT,
        make_tools=make_tools,
        build_graph=broken_graph,
    )
    monkeypatch.setitem(registry._loaded, profile.name, profile)
    user = new_turn(store, profile.name, "hello")

    events = await run(runtime, user, openai_model(), profile=profile.name)

    error = events[-1]
    assert isinstance(error, RunError)
    assert error.error.user_message == (
        "The turn failed unexpectedly (KeyError); see weaver.log for details."
    )
    assert error.reply_id is not None
    assert store.get_message(error.reply_id).meta["error"] == error.error.user_message
