"""The mediator on a real ``ChatOpenAI`` client over HTTP, against the local server playing a
thinking model that wants its reasoning back with its tool calls, and a model whose tool call
arguments are not JSON."""

from __future__ import annotations

from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from storage.models import Conversation
from tests.support.fake_openai import Reply, ToolCall


async def say(runtime: AgentRuntime, store: Any, space: Conversation, model: Any, text: str) -> Any:
    leaf = store.active_leaf(space.id)
    meta = {"sender": "Alex", "visibility": "Alex"}
    user = store.add_message(space.id, "user", text, leaf.id if leaf else None, meta=meta)
    return [
        e
        async for e in runtime.run_turn(
            conversation_id=space.id, user_message_id=user.id, model=model
        )
    ]


def with_calls(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "assistant" and m.get("tool_calls")]


async def test_a_delivery_round_completes_when_the_server_wants_reasoning_back(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.needs_reasoning_back = True
    fake_openai.script(
        Reply(
            reasoning=["THOUGHT: answer Alex privately"],
            tool_calls=[ToolCall("reply_privately", {"recipient": "Alex", "content": "Noted."})],
        ),
        Reply("Replied to Alex."),
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": "Fixed costs first."})]),
        Reply("Posted."),
    )
    model = openai_model()

    events = await say(runtime, store, space, model, "I'm worried about rent.")

    assert isinstance(events[-1], RunFinished), events[-1]
    assert len(fake_openai.chat_requests) == 3  # one 400, one retry with the reasoning
    retried = with_calls(fake_openai.chat_bodies[2])
    assert retried[0]["reasoning_content"] == "THOUGHT: answer Alex privately"
    path = store.path_to_root(events[-1].leaf_id)
    assert all("THOUGHT" not in r.content for r in path)
    assert path[-1].content == "Replied to Alex."

    events = await say(runtime, store, space, model, "Let's tell Sam too.")

    assert isinstance(events[-1], RunFinished), events[-1]
    assert len(fake_openai.chat_requests) == 5  # remembered: sent at once, no 400
    assert all("reasoning_content" in m for m in with_calls(fake_openai.chat_bodies[4]))


async def test_a_broken_delivery_call_is_answered_and_the_retry_delivers(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", "recipient: Alex", id="bad1")]),
        Reply(
            tool_calls=[
                ToolCall("reply_privately", {"recipient": "Alex", "content": "Hi."}, id="ok1")
            ]
        ),
        Reply("Done."),
    )

    events = await say(runtime, store, space, openai_model(), "hello")

    assert isinstance(events[-1], RunFinished), events[-1]
    finished = [(e.call_id, bool(e.error)) for e in events if isinstance(e, ToolFinished)]
    assert finished == [("bad1", True), ("ok1", False)]
    answered = fake_openai.chat_bodies[1]["messages"][-1]
    assert (answered["role"], answered["tool_call_id"]) == ("tool", "bad1")
    assert "not valid JSON" in answered["content"]
