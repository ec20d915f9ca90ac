"""A model per role: the settings' ``roles`` put paper-pilot's critic (or router, or other
structured stages) on a model of its own, over real HTTP; the trace names each stage's model;
a role model that fails is left for the turn's model, said once, and the turn still ends
complete. The synthesis always runs on the turn's model."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from agents.role_models import role_config
from agents.runtime import events as ev
from agents.structured import MEMO
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.structured_answers import message_texts

QUESTION = "What is LoRA?"
ROUTE = {"intent": "factual", "confidence": 0.9, "entities": ["LoRA"],
         "reformulated_query": QUESTION}  # fmt: skip
ANSWER = "LoRA trains well under one percent of the parameters of the model [{n}]."


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


@pytest.fixture
def critic_server() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()


def decision(name: str, **args: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, args)])


def answer(body: dict[str, Any]) -> Reply:
    import re

    text = message_texts(body)
    n = next(n for n, line in re.findall(r"^\[(\d+)\] (.+)$", text, re.M) if "one percent" in line)
    return Reply(ANSWER.format(n=n))


async def run(runtime: Any, store: Any, model: Any) -> tuple[list[Any], Any]:
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", QUESTION, None)
    events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
              user_message_id=user.id, model=model)]  # fmt: skip
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    return events, store.get_message(finished[-1].leaf_id)


def critic_role(base_url: str) -> dict[str, Any]:
    return {"critic": {"name": "openai-compatible", "model": "small-critic",
                       "base_url": base_url, "api_key": "sk-critic"}}  # fmt: skip


async def test_the_critic_runs_on_its_own_model_and_the_trace_names_it(
    notes_runtime: Any, fake_openai: FakeOpenAI, critic_server: FakeOpenAI, openai_model: Any
) -> None:
    runtime, store = notes_runtime
    runtime.profile_settings = {**runtime.profile_settings, "roles": critic_role(critic_server.base_url)}  # fmt: skip
    fake_openai.script(decision("RouteDecision", **ROUTE), answer)
    critic_server.script(decision("CriticVerdict", score=0.9, passed=True))

    _, reply = await run(runtime, store, openai_model())

    assert [b["model"] for b in critic_server.chat_bodies] == ["small-critic"]
    assert "CriticVerdict" in str(critic_server.chat_bodies[0].get("tools"))
    assert len(fake_openai.chat_requests) == 2  # route and synthesis on the turn's model
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["critic"]["model"] == "small-critic"
    assert stages["route"]["model"] == stages["synthesize"]["model"] == "fake-model"
    assert reply.meta["paper_pilot"]["settled"] == "checked"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_role_model_that_fails_leaves_the_stage_to_the_turns_model_said_once(
    notes_runtime: Any, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    runtime, store = notes_runtime
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    runtime.profile_settings = {**runtime.profile_settings, "roles": critic_role(dead)}
    fake_openai.script(
        decision("RouteDecision", **ROUTE),
        answer,
        decision("CriticVerdict", score=0.9, passed=True),
    )

    events, reply = await run(runtime, store, openai_model())

    said = [
        e.text for e in events if isinstance(e, ev.NodeStatus) and "critic model failed" in e.text
    ]
    assert len(said) == 1
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["critic"]["model"] == "fake-model"
    assert reply.meta["paper_pilot"]["verdict"]["passed"]
    assert reply.meta["paper_pilot"]["settled"] == "checked"


def test_a_role_is_set_only_by_a_model_of_its_own() -> None:
    assert role_config({}, "critic") is None
    assert role_config({"roles": {"critic": {"api_key": "k"}}}, "critic") is None
    assert role_config({"roles": {"critic": {"model": "m"}}}, "router") is None
    assert role_config({"roles": {"critic": {"model": "m"}}}, "critic") == {
        "name": None, "model": "m", "base_url": None, "api_key": None}  # fmt: skip
