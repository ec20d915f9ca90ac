"""A model that refuses tools still mediates: its one JSON call per reply delivers privately,
and what Sam may read holds none of it. Over HTTP, real store."""

from __future__ import annotations

import json
from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.space import view_for
from storage.models import Conversation
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply


async def test_a_private_reply_is_delivered_through_emulated_tools(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    private = {"tool": "reply_privately", "arguments": {"recipient": "Alex", "content": "Noted."}}
    fake_openai.script(
        Reply.http_error(400, "model 'tinyllama' does not support tools"),
        Reply(json.dumps(private)),
        Reply("I answered Alex privately."),
    )
    event = UserMessageEvent(sender="Alex", content="I'm worried.", visibility="Alex")

    events = await say(runtime, store, space, openai_model(), event)

    assert isinstance(events[-1], RunFinished), events[-1]
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert [(e.name, bool(e.error)) for e in finished] == [("reply_privately", False)]
    assert all("tools" not in body for body in fake_openai.chat_bodies[1:])
    path = store.path_to_root(events[-1].leaf_id)
    alex = [(m.author, m.content) for m in view_for(path, "Alex")]
    assert ("Mediator", "Noted.") in alex
    assert all("Noted." not in m.content for m in view_for(path, "Sam"))
