"""The mediator on a real ``ChatOpenAI`` client over HTTP, against the local server framing tool
calls as Gemini's endpoint does (no ``index``, empty ids, ``finish_reason: stop``): the
delivery runs, and its result goes back with the call's id and the tool's name."""

from __future__ import annotations

from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from storage.models import Conversation
from tests.support.fake_openai import Reply, ToolCall


async def test_a_delivery_framed_without_index_or_ids_runs(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply.calls_without_index(
            ToolCall("reply_privately", {"recipient": "Alex", "content": "Noted."})
        ),
        Reply("Replied to Alex."),
    )
    meta = {"sender": "Alex", "visibility": "Alex"}
    user = store.add_message(space.id, "user", "I'm worried about rent.", None, meta=meta)

    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=space.id, user_message_id=user.id, model=openai_model()
        )
    ]

    assert isinstance(events[-1], RunFinished), events[-1]
    ran = [e for e in events if isinstance(e, ToolFinished)]
    assert [(e.name, e.error) for e in ran] == [("reply_privately", None)]
    sent = fake_openai.chat_bodies[-1]["messages"]
    call = next(m for m in sent if m.get("tool_calls"))["tool_calls"][0]
    tool = next(m for m in sent if m["role"] == "tool")
    assert call["id"]
    assert tool["tool_call_id"] == call["id"]
    assert tool["name"] == "reply_privately"
