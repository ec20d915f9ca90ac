"""paper-pilot's model round trips before the answer, on a provider's model (the real ChatOpenAI
client against the local OpenAI-compatible server).

The guarantees, for every answer the model may give:
- a multi-hop question whose route answer carries its search steps makes no planning call:
  the steps run are the route's (blank ones dropped, at most ``plan_steps``); a route answer
  with no usable step makes exactly one planning call;
- exploration searches the routed question first with no call of its own; each later search is
  one decision; it never runs a search twice, never runs more than ``react_steps`` searches,
  and stops at the first search that finds nothing new.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.profiles.paper_pilot.limits import Limits
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.test_provider_structured import provider_turn
from tests.support.fake_openai import FakeOpenAI
from tests.support.structured_answers import StructuredAnswers

PASSED = {"score": 0.95, "passed": True, "feedback": ""}
MULTI_HOP = "What does the method that skips the reward model compare against?"
EXPLORE = "What is known about quantization?"
ANSWER = "DPO optimises preferences directly without a reward model [1]."
STEPS = ["method that skips the reward model", "what it compares against"]
PLAN_STEPS = Limits().plan_steps
REACT_STEPS = Limits().react_steps
HYPOTHESIS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@pytest.fixture
async def pilot(
    tmp_path: Path, notes_settings: dict[str, Any]
) -> AsyncIterator[tuple[AgentRuntime, SqliteConversationStore]]:
    """A runtime whose paper-pilot asks the shared notes server."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    store = SqliteConversationStore(tmp_path / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield AgentRuntime(store, saver, config_dir=tmp_path / "config", data_dir=tmp_path / "data",
                           profile_settings=notes_settings), store  # fmt: skip
    store.close()


def route(intent: str, query: str, steps: Sequence[str] = ()) -> dict[str, Any]:
    return {"intent": intent, "confidence": 0.9, "reason": "its shape", "entities": [],
            "dimensions": [], "constraints": [], "reformulated_query": query,
            "steps": list(steps)}  # fmt: skip


def stage(trace: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [s for s in trace["stages"] if s["stage"] == name]


async def multi_hop(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake: FakeOpenAI,
    model: Callable[..., ChatModelHandle],
    steps: Sequence[str],
) -> tuple[StructuredAnswers, dict[str, Any]]:
    runtime, store = pilot
    MEMO.forget()
    answers = StructuredAnswers(
        {
            "RouteDecision": route("multi_hop", MULTI_HOP, steps),
            "ResearchPlan": {"steps": STEPS},
            "ReplanDecision": {"action": "next", "revised_step": ""},
            "CriticVerdict": PASSED,
        },
        ANSWER,
    )
    fake.default = answers
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await provider_turn(runtime, store, conversation.id, MULTI_HOP, model())
    return answers, turn.trace


async def test_the_route_s_steps_spare_the_planning_call(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    answers, trace = await multi_hop(pilot, fake_openai, openai_model, STEPS)
    assert "ResearchPlan" not in answers.asked
    assert answers.asked[:2] == ["RouteDecision", "ReplanDecision"]  # route, then one replan
    assert [s["queries"][0] for s in stage(trace, "execute_step")] == STEPS
    assert stage(trace, "plan")[0]["from_route"] is True


async def test_a_route_with_no_steps_plans_once(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    answers, trace = await multi_hop(pilot, fake_openai, openai_model, [])
    assert answers.asked.count("ResearchPlan") == 1
    assert [s["queries"][0] for s in stage(trace, "execute_step")] == STEPS


@HYPOTHESIS
@given(
    steps=st.lists(st.sampled_from(["", "  ", *STEPS, "DPO baselines", "reward model"]), max_size=5)
)
async def test_any_route_steps_run_as_given_or_are_planned_once(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    steps: list[str],
) -> None:
    answers, trace = await multi_hop(pilot, fake_openai, openai_model, steps)
    usable = [s.strip() for s in steps if s.strip()][:PLAN_STEPS]
    ran = [s["queries"][0] for s in stage(trace, "execute_step")]
    if usable:
        assert "ResearchPlan" not in answers.asked
        assert ran == usable
    else:
        assert answers.asked.count("ResearchPlan") == 1
        assert ran == STEPS


Decision = dict[str, Any]
DECISIONS = st.one_of(
    st.just({"thought": "", "action": "finish", "query": ""}),
    st.builds(
        lambda q: {"thought": "more", "action": "search", "query": q},
        st.sampled_from([EXPLORE, "quantization", "int8 weights", "LoRA adapters", "reward"]),
    ),
)


async def explore(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake: FakeOpenAI,
    model: Callable[..., ChatModelHandle],
    decisions: Sequence[Decision],
) -> tuple[StructuredAnswers, dict[str, Any]]:
    runtime, store = pilot
    MEMO.forget()
    left = list(decisions)

    def next_step(body: dict[str, Any]) -> Decision:
        return left.pop(0) if left else {"thought": "", "action": "finish", "query": ""}

    answers = StructuredAnswers(
        {"RouteDecision": route("exploratory", EXPLORE), "ReactStep": next_step,
         "CriticVerdict": PASSED},
        "Quantization stores weights in fewer bits [1].",
    )  # fmt: skip
    fake.default = answers
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await provider_turn(runtime, store, conversation.id, EXPLORE, model())
    return answers, turn.trace


async def test_exploration_searches_the_question_first_and_stops_when_nothing_new_is_found(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    # the model asks for the question's own words again, in other order: the same notes
    again = {"thought": "search", "action": "search", "query": "quantization known"}
    answers, trace = await explore(pilot, fake_openai, openai_model, [again, again])
    (react,) = stage(trace, "react")
    assert react["queries"] == [EXPLORE, "quantization known"]
    assert react["found"]  # the first search found notes without a model call
    assert answers.asked.count("ReactStep") == 1


@HYPOTHESIS
@given(decisions=st.lists(DECISIONS, max_size=4))
async def test_exploration_never_repeats_a_search_nor_exceeds_its_steps(
    pilot: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    decisions: list[Decision],
) -> None:
    answers, trace = await explore(pilot, fake_openai, openai_model, decisions)
    (react,) = stage(trace, "react")
    queries = react["queries"]
    asked = answers.asked.count("ReactStep")
    assert queries[0] == EXPLORE
    assert len(queries) == len(set(queries)) <= REACT_STEPS
    assert asked <= REACT_STEPS - 1
    # every decision but the last added a search; the last may have ended the loop
    assert len(queries) - 1 <= asked <= len(queries)
    searched = [d["query"] for d in decisions[:asked] if d["action"] == "search"]
    assert queries[1:] == searched[: len(queries) - 1]
