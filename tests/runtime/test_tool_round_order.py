"""A tool round's results are stored in the order the model made the calls, whatever order
the calls finish in (the shared tool node runs them at once).

The class: for any round of calls and any order they finish in (some never finishing, results
of calls outside the round among them), the tool records below the round's reply follow the
calls' order, each result stored exactly once; a result outside the round is stored at once;
the tool pane hears each call as it finishes. Generated cases on the order keeper, on the
event mapper over a real SQLite store, and through the real runtime (ChatOpenAI on the fake
server) with tools that finish in every order.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool, StructuredTool

from agents.graph.tool_node import TOOL_EVENT_KEY
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.event_mapper import TurnEventMapper
from agents.runtime.events import RecordSaved, ToolFinished
from agents.runtime.recorder import TurnRecorder
from agents.runtime.tool_round import RoundOrder, ToolResult
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A round's calls, and the order results arrive in: a permutation of some of them, with
    calls outside the round mixed in."""
    calls = [f"c{i}" for i in range(draw(st.integers(1, 6)))]
    finished = draw(st.permutations(calls))
    finished = finished[: draw(st.integers(0, len(finished)))]
    foreign = draw(st.lists(st.sampled_from(["x1", "x2", "x3"]), unique=True, max_size=2))
    arrivals = list(finished)
    for name in foreign:
        arrivals.insert(draw(st.integers(0, len(arrivals))), name)
    return calls, arrivals


def result(call_id: str) -> ToolResult:
    return ToolResult(call_id, "tool", f"out {call_id}", None, 1.0)


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_the_order_keeper_gives_each_result_once_in_call_order(
    generated: tuple[list[str], list[str]],
) -> None:
    calls, arrivals = generated
    order = RoundOrder()
    assert order.start(calls) == []
    stored: list[str] = []
    for call_id in arrivals:
        ready = [r.call_id for r in order.arrive(result(call_id))]
        if call_id not in calls:
            assert ready == [call_id]  # outside the round: stored at once
        stored += ready
    stored += [r.call_id for r in order.drain()]

    assert sorted(stored) == sorted(arrivals)  # each exactly once
    in_round = [c for c in stored if c in calls]
    assert in_round == [c for c in calls if c in arrivals]  # call order


@settings(max_examples=100, deadline=None)
@given(rounds())
def test_the_mapper_stores_a_round_in_call_order_in_a_real_store(
    tmp_path_factory: pytest.TempPathFactory, generated: tuple[list[str], list[str]]
) -> None:
    calls, arrivals = generated
    store = SqliteConversationStore(tmp_path_factory.mktemp("round") / "weaver.db")
    try:
        user = new_turn(store, "ide-helper", "do several things")
        recorder = TurnRecorder(store, user.conversation_id, user.id, {})
        mapper = TurnEventMapper(recorder)
        message = AIMessage(
            content="",
            tool_calls=[{"id": c, "name": "tool", "args": {}} for c in calls],
            id="reply-1",
        )
        events = list(mapper.handle("updates", {"agent": {"messages": [message]}}))
        for call_id in arrivals:
            payload = {TOOL_EVENT_KEY: "finished", "call_id": call_id, "name": "tool",
                       "output": f"out {call_id}"}  # fmt: skip
            events += mapper.handle("custom", payload)
        heard = [e.call_id for e in of_type(events, ToolFinished)]
        events += mapper.flush_tool_results()

        assert heard == arrivals  # the pane hears each call as it finishes
        tools = [store.get_message(i) for i in recorder.record_ids]
        stored = [r.meta["tool_call_id"] for r in tools if r.role == "tool"]
        assert sorted(stored) == sorted(arrivals)
        assert [c for c in stored if c in calls] == [c for c in calls if c in arrivals]
        path = store.path_to_root(recorder.last_id)
        assert [r.meta.get("tool_call_id") for r in path if r.role == "tool"] == stored
        saved = [e.record.id for e in of_type(events, RecordSaved) if e.record.role == "tool"]
        assert saved == [r.id for r in tools if r.role == "tool"]
    finally:
        store.close()


NAMES = ["step_a", "step_b", "step_c"]


def gated_tools(finish_order: list[str]) -> list[BaseTool]:
    """Tools that all start at once and finish in ``finish_order``: each waits for the one
    before it in that order (no clock involved)."""
    done = {name: asyncio.Event() for name in NAMES}

    def make(name: str) -> BaseTool:
        position = finish_order.index(name)

        async def step() -> str:
            if position > 0:
                await done[finish_order[position - 1]].wait()
            done[name].set()
            return f"{name} done"

        return StructuredTool.from_function(coroutine=step, name=name, description=f"Run {name}.")

    return [make(name) for name in NAMES]


@pytest.mark.usefixtures("researcher")
@pytest.mark.parametrize(
    "finish_order", [list(p) for p in itertools.permutations(NAMES)], ids="-".join
)
async def test_a_round_that_finishes_in_any_order_is_stored_in_call_order(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    finish_order: list[str],
    tmp_path: Path,
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall(name, {}, id=f"call_{name}") for name in NAMES]),
        Reply("All three ran."),
    )
    user = new_turn(store, "researcher", "run the three steps")

    events = await run(runtime, user, openai_model(), session_tools=gated_tools(finish_order))

    path = store.path_to_root(finish_of(events).leaf_id)
    assert [r.role for r in path] == ["user", "assistant", "tool", "tool", "tool", "assistant"]
    assert [r.meta["tool_call_id"] for r in path[2:5]] == [f"call_{n}" for n in NAMES]
    assert [r.content for r in path[2:5]] == [f"{n} done" for n in NAMES]
    finished = [e.call_id for e in of_type(events, ToolFinished)]
    assert sorted(finished) == sorted(f"call_{n}" for n in NAMES)
    # the model's next request carries the results in call order too
    sent = [
        m["tool_call_id"] for m in fake_openai.chat_bodies[1]["messages"] if m["role"] == "tool"
    ]
    assert sent == [f"call_{n}" for n in NAMES]
