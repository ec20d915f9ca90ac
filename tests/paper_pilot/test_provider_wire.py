"""paper-pilot on a real ``ChatOpenAI`` client over HTTP, against the local server playing a
model that thinks inline (``<think>`` in its content) and reports usage: the reasoning stays
out of the draft the critic judges, the answer, its citations and the long-term memory, and the
turn records the tokens of all its model calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.runtime import events as ev
from tests.support.fake_openai import Reply, ToolCall

DRAFT = "LoRA trains two small low-rank matrices beside each frozen weight [1]."


def decision(name: str, **args: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, args)], usage=(100, 10))


def script(fake_openai: Any) -> None:
    fake_openai.script(
        decision(
            "RouteDecision",
            intent="factual",
            confidence=0.9,
            reason="a definition",
            entities=["LoRA"],
            reformulated_query="What is LoRA?",
        ),
        Reply(
            deltas=["<think>SECRET-PLAN: cite ", "[2] too.</think>", "\n\n", DRAFT],
            usage=(300, 40),
        ),
        decision("CriticVerdict", score=0.9, passed=True, feedback=""),
    )


async def test_inline_reasoning_never_reaches_critic_answer_citations_or_memory(
    notes_runtime: Any, data_dir: Path, fake_openai: Any, openai_model: Any
) -> None:
    runtime, store = notes_runtime
    script(fake_openai)
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", "What is LoRA?", None)

    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=openai_model()
        )
    ]

    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    requests = fake_openai.chat_bodies
    assert len(requests) == 3
    assert "SECRET" not in json.dumps(requests[2])  # what the critic judged
    assert DRAFT.removesuffix(" [1].") in json.dumps(requests[2])
    reply = store.get_message(finished[0].leaf_id)
    assert "SECRET" not in reply.content
    assert "<think>" not in reply.content
    assert reply.content.startswith("LoRA trains two small low-rank matrices")
    assert len(reply.meta["sources"]) == 1  # the [2] it only thought of is not cited
    with Memory(memory_path(data_dir)) as memory:
        facts = [fact.text for fact in memory.all()]
    assert facts
    assert not any("SECRET" in fact or "think" in fact for fact in facts)

    # Every model call's tokens, summed: 2 decisions and the synthesis.
    assert finished[0].usage == ev.Usage(500, 60, 560)
    assert [e for e in events if isinstance(e, ev.Usage)] == [ev.Usage(500, 60, 560)]
    assert reply.meta["turn_usage"]["input_tokens"] == 500
