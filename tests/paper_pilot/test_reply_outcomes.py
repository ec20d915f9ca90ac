"""paper-pilot's stages on a real ``ChatOpenAI`` client over HTTP, against the local server
playing a model whose answer ends cut (``length``), filtered, refused or empty: no such stage
answer counts as a success. A critic that was cut, refused or silent has not passed (the answer
is shown unchecked and not remembered); a router's cut decision is not read; a synthesis that
was refused, filtered, cut or empty ends the turn marked with one sentence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.runtime import events as ev
from agents.structured import MEMO
from storage.models import MessageStatus
from tests.support.fake_openai import Reply, ToolCall

ROUTE = {"intent": "factual", "confidence": 0.9, "reason": "a definition", "entities": ["LoRA"],
         "reformulated_query": "What is LoRA?"}  # fmt: skip
ANSWER = "LoRA trains two small low-rank matrices beside each frozen weight [1]."


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


def decision(name: str, arguments: dict[str, Any] | str, **kwargs: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, arguments)], **kwargs)


async def ask(runtime: Any, store: Any, model: Any) -> tuple[list[Any], Any]:
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", "What is LoRA?", None)
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=model
        )
    ]
    return events, user


def remembered(data_dir: Path) -> list[str]:
    with Memory(memory_path(data_dir)) as memory:
        return [fact.text for fact in memory.all()]


@pytest.mark.parametrize(
    "critic",
    [
        decision("CriticVerdict", '{"score": 0.95, "passed": true', finish_reason="length"),
        decision("CriticVerdict", {"score": 0.95, "passed": True}, finish_reason="length"),
        decision("CriticVerdict", {"score": 0.95, "passed": True}, finish_reason="content_filter"),
        Reply(refusal="I can't judge that."),
    ],
)
async def test_a_critic_cut_filtered_or_refused_has_not_passed(
    notes_runtime: Any, data_dir: Path, fake_openai: Any, openai_model: Any, critic: Reply
) -> None:
    runtime, store = notes_runtime
    fake_openai.script(decision("RouteDecision", ROUTE), Reply(ANSWER), critic)

    events, _ = await ask(runtime, store, openai_model())

    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    assert len(fake_openai.chat_requests) == 3  # no other rung asked of a marked answer
    reply = store.get_message(finished[0].leaf_id)
    assert reply.content.startswith("LoRA trains")
    assert reply.meta["check"]["state"] == "unchecked"
    assert remembered(data_dir) == []
    critic_lines = [e for e in events if isinstance(e, ev.NodeStatus) and e.node == "critic"]
    assert critic_lines[-1].state == "error"


async def test_a_verdict_whose_arguments_end_early_is_not_read_as_passed(
    notes_runtime: Any, data_dir: Path, fake_openai: Any, openai_model: Any
) -> None:
    # The server said "stop", but the verdict's JSON ends before it closes: langchain's lenient
    # reader would complete it into {"score": 0.95, "passed": true}.
    runtime, store = notes_runtime
    cut = decision("CriticVerdict", '{"score": 0.95, "passed": true', finish_reason="stop")
    fake_openai.script(
        decision("RouteDecision", ROUTE), Reply(ANSWER), cut, cut, Reply("no JSON"), Reply("none")
    )

    events, _ = await ask(runtime, store, openai_model())

    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    reply = store.get_message(finished[0].leaf_id)
    assert reply.meta["check"]["state"] == "unchecked"
    assert remembered(data_dir) == []


async def test_a_router_decision_cut_by_length_is_not_read(
    notes_runtime: Any, fake_openai: Any, openai_model: Any
) -> None:
    runtime, store = notes_runtime
    fake_openai.script(
        decision("RouteDecision", {**ROUTE, "intent": "comparative"}, finish_reason="length"),
        Reply(ANSWER),
        decision("CriticVerdict", {"score": 0.9, "passed": True, "feedback": ""}),
    )

    events, _ = await ask(runtime, store, openai_model())

    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    route = [e for e in events if isinstance(e, ev.NodeStatus) and e.node == "route"]
    assert route[-1].state == "error"
    assert not any("comparative" in e.text for e in route)


@pytest.mark.parametrize(
    ("synthesis", "outcome"),
    [
        (Reply(refusal="I can't help with that."), "refused"),
        (Reply("LoRA trains two small", finish_reason="content_filter"), "filtered"),
        (Reply("LoRA trains two small", finish_reason="length"), "truncated"),
        (Reply("  "), "empty"),
    ],
)
async def test_a_synthesis_refused_filtered_cut_or_empty_ends_the_turn_marked(
    notes_runtime: Any,
    data_dir: Path,
    fake_openai: Any,
    openai_model: Any,
    synthesis: Reply,
    outcome: str,
) -> None:
    runtime, store = notes_runtime
    fake_openai.script(decision("RouteDecision", ROUTE), synthesis)

    events, _ = await ask(runtime, store, openai_model())

    assert isinstance(events[-1], ev.RunError), events[-1]
    assert len(fake_openai.chat_requests) == 2  # no critic judged it
    record = events[-1].record
    assert record is not None
    stored = store.get_message(record.id)
    assert stored.status is MessageStatus.ERROR
    assert stored.meta["outcome"] == outcome
    assert stored.meta["error"] == events[-1].error.user_message
    if synthesis.refusal:
        assert stored.content == synthesis.refusal
    assert remembered(data_dir) == []
