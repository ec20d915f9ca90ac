"""The mediator on a real ``ChatOpenAI`` client over HTTP, against the local server playing a
model whose reply ends cut (``length``), filtered, refused or empty: nothing half-written is
delivered to a participant, and the reply is stored marked with one sentence."""

from __future__ import annotations

from typing import Any

import pytest

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunFinished, ToolStarted
from storage.models import Conversation, MessageStatus
from tests.mediator.test_provider_wire import say
from tests.support.fake_openai import Reply, ToolCall

CUT = '{"recipient": "Alex", "content": "Thank you Alex'


def delivered(store: Any, space: Conversation) -> list[Any]:
    """Every record a tool wrote for a participant to see."""
    leaf = store.active_leaf(space.id)
    return [r for r in store.path_to_root(leaf.id) if r.role == "tool" and r.meta.get("visibility")]


@pytest.mark.parametrize("arguments", [CUT, CUT + '"}'])
async def test_a_call_cut_by_length_is_never_delivered(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    fake_openai: Any,
    openai_model: Any,
    arguments: str,
) -> None:
    # Cut JSON (langchain reads it leniently into a partial object) or whole-looking JSON:
    # with finish_reason "length" neither runs.
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", arguments)], finish_reason="length")
    )

    events = await say(runtime, store, space, openai_model(), "I'm worried about rent.")

    assert isinstance(events[-1], RunError), events[-1]
    assert not [e for e in events if isinstance(e, ToolStarted)]
    assert delivered(store, space) == []
    assert len(fake_openai.chat_requests) == 1  # no "broken JSON, retry" round
    reply = events[-1].record
    assert reply is not None
    assert reply.status is MessageStatus.ERROR
    assert reply.meta["outcome"] == "truncated"
    assert "reply_privately" in reply.meta["error"]
    assert store.get_message(reply.id).meta["error"] == reply.meta["error"]


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (Reply(refusal="I can't help with that."), "refused"),
        (Reply("Here is the first half", finish_reason="content_filter"), "filtered"),
        (
            Reply(
                tool_calls=[ToolCall("post_to_shared", {"content": "Everyone"})],
                finish_reason="content_filter",
            ),
            "filtered",
        ),
        (Reply(""), "empty"),
        (Reply("   \n"), "empty"),
    ],
)
async def test_a_marked_reply_is_stored_as_what_it_is_and_sends_nothing(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    fake_openai: Any,
    openai_model: Any,
    reply: Reply,
    outcome: str,
) -> None:
    fake_openai.script(reply)

    events = await say(runtime, store, space, openai_model(), "hello")

    assert isinstance(events[-1], RunError), events[-1]
    assert delivered(store, space) == []
    record = events[-1].record
    assert record is not None
    stored = store.get_message(record.id)
    assert stored.status is MessageStatus.ERROR
    assert stored.meta["outcome"] == outcome
    assert stored.meta["error"] == events[-1].error.user_message
    if reply.refusal:
        assert stored.content == reply.refusal
    if outcome == "filtered" and reply.content:
        assert stored.content == reply.content


async def test_a_call_cut_mid_arguments_without_length_is_answered_as_broken_never_run(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    # A stream whose arguments end before their JSON object does, though the server said
    # "stop": langchain's lenient reader would complete them; the call is answered as broken.
    whole = {"recipient": "Alex", "content": "Thank you Alex, noted."}
    fake_openai.script(
        Reply(tool_calls=[ToolCall("reply_privately", CUT, id="cut1")], finish_reason="stop"),
        Reply(tool_calls=[ToolCall("reply_privately", whole, id="ok1")]),
        Reply("Done."),
    )

    events = await say(runtime, store, space, openai_model(), "hello")

    assert isinstance(events[-1], RunFinished), events[-1]
    started = [(e.call_id, e.args) for e in events if isinstance(e, ToolStarted)]
    assert started == [("cut1", {}), ("ok1", whole)]
    assert [r.meta.get("delivered_content") for r in delivered(store, space)] == [whole["content"]]


async def test_a_delivery_then_nothing_more_to_say_is_a_complete_turn(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    whole = {"recipient": "Alex", "content": "Noted, Alex."}
    fake_openai.script(Reply(tool_calls=[ToolCall("reply_privately", whole)]), Reply(""))

    events = await say(runtime, store, space, openai_model(), "hello")

    assert isinstance(events[-1], RunFinished), events[-1]
    assert [r.meta.get("delivered_content") for r in delivered(store, space)] == ["Noted, Alex."]
