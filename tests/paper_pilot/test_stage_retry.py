"""paper-pilot's stages are model calls like any other: a rate-limited router or critic is
tried again after the wait, so the stage keeps its own answer instead of falling back
(real ``ChatOpenAI`` over HTTP to the fake server; waits recorded, not slept)."""

from __future__ import annotations

from typing import Any

from agents.providers.retried_call import PROVIDER_STATUS_NODE
from agents.runtime import events as ev
from tests.paper_pilot.test_provider_wire import DRAFT, decision
from tests.support.fake_openai import Reply
from tests.support.retry_waits import RecordedWaits


async def test_a_rate_limited_router_and_critic_are_tried_again_and_keep_their_answers(
    notes_runtime: Any, fake_openai: Any, openai_model: Any, retry_waits: RecordedWaits
) -> None:
    runtime, store = notes_runtime
    fake_openai.script(
        Reply.rate_limited(retry_after=3),
        decision(
            "RouteDecision",
            intent="factual",
            confidence=0.9,
            reason="a definition",
            entities=["LoRA"],
            reformulated_query="What is LoRA?",
        ),
        Reply(deltas=[DRAFT]),
        Reply.http_error(529, "Overloaded"),
        decision("CriticVerdict", score=0.9, passed=True, feedback=""),
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
    assert len(fake_openai.chat_bodies) == 5
    assert retry_waits == [3.0, 2.0]
    stages = [e for e in events if isinstance(e, ev.NodeStatus)]
    assert not [e for e in stages if e.node in ("route", "critic") and e.state == "error"]
    retried = [e.text for e in stages if e.node == PROVIDER_STATUS_NODE and e.state == "running"]
    assert retried == [
        "rate limited, retrying in 3 s",
        "the server is overloaded (529), retrying in 2 s",
    ]
    reply = store.get_message(finished[0].leaf_id)
    assert reply.content.startswith("LoRA trains two small low-rank matrices")
