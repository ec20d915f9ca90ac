"""Every combination of paper-pilot's roles (router, structured, critic), each unset, working
on a server of its own or unreachable, over the real graph, the real ``ChatOpenAI`` client and
real HTTP: each call goes to its role's model while that works and to the turn's model
otherwise, the synthesis always to the turn's; each unreachable role is said exactly once, on
the line of the stage that found it; the trace names, per stage, the model its calls asked;
the turn ends complete."""

from __future__ import annotations

import itertools
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from agents.runtime import events as ev
from agents.structured import MEMO
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.openai_script import ReplySource
from tests.support.structured_answers import message_texts

QUESTION = "Explore what is known about LoRA"
ROLES = ("router", "structured", "critic")
STATES = ("unset", "working", "unreachable")
COMBINATIONS = list(itertools.product(STATES, repeat=len(ROLES)))


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


@pytest.fixture
def role_server() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(default=None).start()
    try:
        yield server
    finally:
        server.stop()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def decision(name: str, **args: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, args)])


def answer(body: dict[str, Any]) -> Reply:
    text = message_texts(body)
    n = next(n for n, line in re.findall(r"^\[(\d+)\] (.+)$", text, re.M) if "LoRA" in line)
    return Reply(f"LoRA adapts a model with small low-rank matrices [{n}].")


CALLS: list[tuple[str | None, ReplySource]] = [
    ("router", decision("RouteDecision", intent="exploratory", confidence=0.9,
                        entities=["LoRA"], reformulated_query=QUESTION)),
    # exploration searches the routed question first, then asks for its next step
    ("structured", decision("ReactStep", thought="enough", action="finish")),
    (None, answer),
    ("critic", decision("CriticVerdict", score=0.9, passed=True)),
]  # fmt: skip
"""The turn's calls in order: the role that asks each (``None``: the turn's model) and its
answer."""


@pytest.mark.parametrize("states", COMBINATIONS, ids=["-".join(c) for c in COMBINATIONS])
async def test_any_combination_of_roles_gives_each_call_its_model_and_one_sentence_per_failure(
    notes_runtime: Any,
    fake_openai: FakeOpenAI,
    role_server: FakeOpenAI,
    openai_model: Any,
    states: tuple[str, ...],
) -> None:
    runtime, store = notes_runtime
    state_of = dict(zip(ROLES, states, strict=True))
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    runtime.profile_settings = {**runtime.profile_settings, "roles": {
        role: {"name": "openai-compatible", "model": f"small-{role}", "api_key": f"sk-{role}",
               "base_url": role_server.base_url if state == "working" else dead}
        for role, state in state_of.items() if state != "unset"}}  # fmt: skip
    for role, reply in CALLS:
        server = role_server if role and state_of[role] == "working" else fake_openai
        server.script(reply)

    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", QUESTION, None)
    events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
              user_message_id=user.id, model=openai_model())]  # fmt: skip
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e.error.user_message for e in events if isinstance(e, ev.RunError)]
    reply = store.get_message(finished[-1].leaf_id)

    def model_of(role: str | None) -> str:
        return f"small-{role}" if role and state_of[role] == "working" else "fake-model"

    assert [b["model"] for b in role_server.chat_bodies] == [
        model_of(role) for role, _ in CALLS if role and state_of[role] == "working"
    ]
    assert [b["model"] for b in fake_openai.chat_bodies] == [
        "fake-model" for role, _ in CALLS if not (role and state_of[role] == "working")
    ]
    said = [e for e in events if isinstance(e, ev.NodeStatus) and "model failed" in e.text]
    failing = [role for role in ROLES if state_of[role] == "unreachable"]
    assert sorted(e.text.split()[1] for e in said) == sorted(failing)
    line_of = {"router": "route", "structured": "react", "critic": "critic"}
    assert sorted(e.node for e in said) == sorted(line_of[role] for role in failing)
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["route"]["model"] == model_of("router")
    assert stages["react"]["model"] == model_of("structured")
    assert stages["synthesize"]["model"] == "fake-model"
    assert stages["critic"]["model"] == model_of("critic")
    assert all("model" not in stages[s] for s in ("load_memory", "scope", "audit") if s in stages)
    for role, stage in line_of.items():  # the trace says which stage found a role failing
        fallback = stages[stage].get("fallback", [])
        assert len(fallback) == (state_of[role] == "unreachable")
        assert all(f"the {role} model failed" in f for f in fallback)
    assert reply.meta["paper_pilot"]["settled"] == "checked"


async def test_a_multi_hop_plan_and_its_replan_run_on_the_structured_role_and_the_trace_says_so(
    notes_runtime: Any, fake_openai: FakeOpenAI, role_server: FakeOpenAI, openai_model: Any
) -> None:
    runtime, store = notes_runtime
    runtime.profile_settings = {**runtime.profile_settings, "roles": {"structured": {
        "name": "openai-compatible", "model": "small-structured", "api_key": "sk-s",
        "base_url": role_server.base_url}}}  # fmt: skip
    fake_openai.script(
        decision("RouteDecision", intent="multi_hop", confidence=0.9, entities=["LoRA"],
                 reformulated_query=QUESTION),
        answer,
        decision("CriticVerdict", score=0.9, passed=True),
    )  # fmt: skip
    role_server.script(
        decision("ResearchPlan", steps=["LoRA low-rank", "LoRA parameters"]),
        decision("ReplanDecision", action="synthesize"),
    )
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", QUESTION, None)
    events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
              user_message_id=user.id, model=openai_model())]  # fmt: skip
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e.error.user_message for e in events if isinstance(e, ev.RunError)]
    reply = store.get_message(finished[-1].leaf_id)

    assert [b["model"] for b in role_server.chat_bodies] == ["small-structured"] * 2
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["plan"]["model"] == stages["replan"]["model"] == "small-structured"
    assert stages["replan"]["outcome"] == "synthesize"
    assert "model" not in stages["execute_step"]
    assert stages["route"]["model"] == stages["synthesize"]["model"] == "fake-model"


async def test_a_role_model_with_no_usable_answer_leaves_the_stage_to_the_turns_model(
    notes_runtime: Any, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    """A critic model that answers in prose, never in the verdict's schema: the turn's model
    judges the draft, the fallback is said once, and the trace names both models."""
    prose = FakeOpenAI(default=lambda body: Reply("It reads fine to me.")).start()
    try:
        runtime, store = notes_runtime
        runtime.profile_settings = {**runtime.profile_settings, "roles": {"critic": {
            "name": "openai-compatible", "model": "small-critic", "api_key": "sk-c",
            "base_url": prose.base_url}}}  # fmt: skip
        fake_openai.script(
            decision("RouteDecision", intent="factual", confidence=0.9, entities=["LoRA"],
                     reformulated_query=QUESTION),
            answer,
            decision("CriticVerdict", score=0.9, passed=True),
        )  # fmt: skip
        conversation = store.create_conversation("paper-pilot", "research")
        user = store.add_message(conversation.id, "user", QUESTION, None)
        events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
                  user_message_id=user.id, model=openai_model())]  # fmt: skip
        finished = [e for e in events if isinstance(e, ev.RunFinished)]
        assert finished, [e.error.user_message for e in events if isinstance(e, ev.RunError)]
        reply = store.get_message(finished[-1].leaf_id)
        asked_prose = [b["model"] for b in prose.chat_bodies]
    finally:
        prose.stop()

    assert asked_prose
    assert set(asked_prose) == {"small-critic"}
    said = [e for e in events if isinstance(e, ev.NodeStatus) and "critic model failed" in e.text]
    assert len(said) == 1
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["critic"]["model"] == "small-critic, fake-model"
    assert reply.meta["paper_pilot"]["verdict"]["passed"]
    assert reply.meta["paper_pilot"]["settled"] == "checked"
