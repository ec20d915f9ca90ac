"""paper-pilot's structured stages on a real ``ChatOpenAI`` client over HTTP, against the local
server framing tool calls as Gemini's endpoint does (no ``index``, empty ids, ``stop``): the
router's and the critic's answers arrive, and the turn takes its three requests."""

from __future__ import annotations

from typing import Any

from agents.runtime import events as ev
from tests.support.fake_openai import Reply, ToolCall

DRAFT = "LoRA trains two small low-rank matrices beside each frozen weight [1]."


async def test_router_and_critic_read_calls_without_index_or_ids(
    notes_runtime: Any, fake_openai: Any, openai_model: Any
) -> None:
    runtime, store = notes_runtime
    fake_openai.script(
        Reply.calls_without_index(
            ToolCall(
                "RouteDecision",
                {
                    "intent": "factual",
                    "confidence": 0.9,
                    "reason": "a definition",
                    "entities": ["LoRA"],
                    "reformulated_query": "What is LoRA?",
                },
            )
        ),
        Reply(DRAFT),
        Reply.calls_without_index(
            ToolCall("CriticVerdict", {"score": 0.9, "passed": True, "feedback": ""})
        ),
    )
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
    assert len(fake_openai.chat_bodies) == 3  # router, synthesis, critic: none asked again
    reply = store.get_message(finished[0].leaf_id)
    assert reply.content.startswith("LoRA trains two small low-rank matrices")
    stages = [e for e in events if isinstance(e, ev.NodeStatus)]
    assert not [e for e in stages if e.state == "error"], stages  # no "no verdict", no fallback
