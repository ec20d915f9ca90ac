"""Delivery through the real runtime: reply_privately reaches one participant, post_to_shared
everyone; an unknown recipient is an error the model reads; each participant's view holds
only what they may see, while the model's context holds everything."""

from __future__ import annotations

from typing import Any

from agents.profile_registry import get_profile
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.space import view_for, visible_to
from storage.models import Conversation
from tests.support.fake_openai import Reply, ToolCall


async def say(
    runtime: AgentRuntime, store: Any, space: Conversation, model: Any, event: UserMessageEvent
) -> list[Any]:
    leaf = store.active_leaf(space.id)
    user = store.add_message(
        space.id, "user", event.content, leaf.id if leaf else None, meta=event.record_meta()
    )
    return [
        e
        async for e in runtime.run_turn(
            conversation_id=space.id, user_message_id=user.id, model=model
        )
    ]


async def test_private_and_shared_deliveries_and_each_participants_view(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall(
                    "reply_privately", {"recipient": "alex", "content": "Noted, Alex."}, id="p1"
                ),
                ToolCall(
                    "post_to_shared", {"content": "Let's list fixed costs together."}, id="s1"
                ),
            ]
        ),
        Reply("Replied to Alex, posted a summary."),
    )
    events = await say(
        runtime,
        store,
        space,
        model,
        UserMessageEvent(sender="Alex", content="I'm worried about our rent."),
    )
    finished = {e.name: e for e in events if isinstance(e, ToolFinished)}
    assert {name: f.error for name, f in finished.items()} == {
        "reply_privately": None,
        "post_to_shared": None,
    }
    assert finished["reply_privately"].output == (
        "Delivered privately to Alex; only Alex can read it."
    )
    system = fake_openai.chat_bodies[0]["messages"][0]["content"]
    assert "Participants: Alex, Sam" in system
    assert "Now speaking: Alex, privately to you (Sam cannot see it)." in system
    assert "never reveal, quote or hint" in system

    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall(
                    "reply_privately", {"recipient": "Sam", "content": "Thanks, Sam."}, id="p2"
                )
            ]
        ),
        Reply("Replied to Sam."),
    )
    events = await say(
        runtime,
        store,
        space,
        model,
        UserMessageEvent(sender="Sam", content="Fine by me.", visibility="shared"),
    )
    assert isinstance(events[-1], RunFinished)
    system = fake_openai.chat_bodies[2]["messages"][0]["content"]
    assert "Now speaking: Sam, in the shared space, so everyone has read it." in system
    # The model's context holds everything, Alex's private words included, marked private.
    sent = [(m.get("name"), m.get("content")) for m in fake_openai.chat_bodies[2]["messages"]]
    assert ("Alex", "[private: Alex → mediator]\nI'm worried about our rent.") in sent
    assert ("Sam", "Fine by me.") in sent

    path = store.path_to_root(events[-1].leaf_id)
    alex = [(m.author, m.content, m.visibility) for m in view_for(path, "Alex")]
    sam = [(m.author, m.content, m.visibility) for m in view_for(path, "Sam")]
    assert alex == [
        ("Alex", "I'm worried about our rent.", "Alex"),
        ("Mediator", "Noted, Alex.", "Alex"),
        ("Mediator", "Let's list fixed costs together.", "shared"),
        ("Sam", "Fine by me.", "shared"),
    ]
    assert sam == [
        ("Mediator", "Let's list fixed costs together.", "shared"),
        ("Sam", "Fine by me.", "shared"),
        ("Mediator", "Thanks, Sam.", "Sam"),
    ]
    everything = view_for(path, None)
    assert {m.kind for m in everything} == {"said", "delivered", "internal"}
    assert "Replied to Alex, posted a summary." in [m.content for m in everything]
    by_call = {r.tool_call_id: r for r in path if r.role == "tool"}
    assert {c: visible_to(r, "Sam", path) for c, r in by_call.items()} == {
        "p1": False,
        "s1": True,
        "p2": True,
    }
    assert {c: visible_to(r, "Alex", path) for c, r in by_call.items()} == {
        "p1": True,
        "s1": True,
        "p2": False,
    }


async def test_unknown_recipient_is_an_error_the_model_reads_and_nothing_is_delivered(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("reply_privately", {"recipient": "Jordan", "content": "Hi"}, id="x1")
            ]
        ),
        Reply(
            tool_calls=[
                ToolCall("reply_privately", {"recipient": "Sam", "content": "Hi Sam"}, id="x2")
            ]
        ),
        Reply("Sent to Sam instead."),
    )
    events = await say(
        runtime,
        store,
        space,
        openai_model(),
        UserMessageEvent(sender="Sam", content="Hello?"),
    )
    bad, good = [e for e in events if isinstance(e, ToolFinished)]
    assert bad.error == (
        "'Jordan' is not a participant of this space; the participants are Alex and Sam. "
        "Use one of those names exactly."
    )
    assert good.error is None
    second = fake_openai.chat_bodies[1]["messages"]
    assert second[-1]["role"] == "tool"
    assert second[-1]["content"] == bad.error
    path = store.path_to_root(events[-1].leaf_id)
    assert [m.content for m in view_for(path, "Sam") if m.author == "Mediator"] == ["Hi Sam"]
    assert [m.content for m in view_for(path, "Alex")] == []


async def test_space_state_fields_are_filled(
    store: Any,
    space: Conversation,
    runtime: AgentRuntime,
    fake_openai: Any,
    openai_model: Any,
    monkeypatch: Any,
) -> None:
    async def keep(_thread_id: str) -> None:  # read the settled turn's state below
        return None

    monkeypatch.setattr(runtime, "_forget_thread", keep)
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": "Welcome both."}, id="w1")]),
        Reply("Posted a welcome."),
    )
    events = await say(
        runtime,
        store,
        space,
        openai_model(),
        UserMessageEvent(sender="Alex", content="Hello both", visibility="shared"),
    )
    path = store.path_to_root(events[-1].leaf_id)
    thread_id = next(r.meta["thread_id"] for r in path if "thread_id" in r.meta)
    graph = runtime.graph_for(get_profile("mediator"))
    state = await graph.aget_state({"configurable": {"thread_id": thread_id}})
    values = state.values
    assert (values["input"][0].name, values["input"][0].content) == ("Alex", "Hello both")
    assert values["action_to_execute"] is None
    assert values["tool_output"] == "Posted to the shared space; Alex and Sam can read it."
    assert values["steps"] == [
        {
            "action": {"type": "post_to_shared", "content": "Welcome both."},
            "observation": "Posted to the shared space; Alex and Sam can read it.",
        }
    ]
