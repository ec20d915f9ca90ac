"""Privacy of the shared space through the real runtime and the fake OpenAI server: the model
reads which messages were private, the shared channel holds a post that repeats someone's
private words, a closing reply is stored for the speaker alone, and a conversation is never
titled with private words."""

from __future__ import annotations

from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from agents.runtime.user_message import NewMessage, store_user_message
from agents.shared_space.events import UserMessageEvent
from agents.shared_space.guard import held_for, repeats
from agents.shared_space.space import shared_channel
from storage.models import Conversation
from tests.mediator.test_delivery import say
from tests.support.fake_openai import Reply, ToolCall

SAM_SECRET = "I lost our savings at the casino last spring and I feel ashamed."


async def test_the_model_reads_each_private_message_marked_with_who_may_see_it(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(Reply("Thank you, Sam."), Reply("Welcome, Alex."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SAM_SECRET))
    await say(
        runtime, store, space, model,
        UserMessageEvent(sender="Alex", content="Shall we plan?", visibility="shared"),
    )  # fmt: skip

    sent = fake_openai.chat_requests[-1].body["messages"]
    human = [(m.get("name"), m["content"]) for m in sent if m["role"] == "user"]
    assert human == [
        ("Sam", f"[private: Sam → mediator]\n{SAM_SECRET}"),
        ("Alex", "Shall we plan?"),
    ]


async def test_a_shared_post_quoting_private_words_is_held_and_the_mediator_told_to_rephrase(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    model = openai_model()
    fake_openai.script(Reply("I hear you, Sam."))
    await say(runtime, store, space, model, UserMessageEvent(sender="Sam", content=SAM_SECRET))
    leak = "Sam told me: i LOST our  savings at the casino last spring."
    rephrased = "Let us look at the savings together, calmly."
    fake_openai.script(
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": leak}, id="leak")]),
        Reply(tool_calls=[ToolCall("post_to_shared", {"content": rephrased}, id="ok")]),
        Reply("Posted a neutral note."),
    )
    events = await say(
        runtime, store, space, model,
        UserMessageEvent(sender="Alex", content="What is going on?", visibility="shared"),
    )  # fmt: skip

    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert [(f.call_id, f.error is not None) for f in finished] == [("leak", True), ("ok", False)]
    held = finished[0]
    assert "Shared post held" in str(held.error)
    assert "Sam's private words" in str(held.error)
    assert "casino" not in str(held.error)
    told = fake_openai.chat_requests[-2].body["messages"][-1]
    assert told["role"] == "tool"
    assert "Rephrase" in told["content"]
    leaf = next(e for e in events if isinstance(e, RunFinished)).leaf_id
    path = store.path_to_root(leaf)
    assert [m.content for m in shared_channel(path)] == ["What is going on?", rephrased]
    for viewer in ("Alex", "shared"):
        assert all("casino" not in r.content for r in store.path_to_root(leaf, viewer))
        assert store.search("casino", viewer=viewer) == []


async def test_a_closing_reply_without_delivery_is_stored_for_the_speaker_alone(
    store: Any, space: Conversation, runtime: AgentRuntime, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(Reply("Thank you for telling me, Sam."))
    events = await say(
        runtime, store, space, openai_model(), UserMessageEvent(sender="Sam", content="Hello.")
    )
    leaf = next(e for e in events if isinstance(e, RunFinished)).leaf_id
    assert store.get_message(leaf).meta["visibility"] == "Sam"
    assert [r.content for r in store.path_to_root(leaf, "Sam")][-1].startswith("Thank you")
    assert store.path_to_root(leaf, "Alex") == []


def test_repeats_finds_a_whole_sentence_or_eight_words_in_a_row() -> None:
    assert repeats("Note: I FEEL   ashamed of it", "We argued. I feel ashamed of it.")
    assert repeats("x lost our savings at the casino last spring y", SAM_SECRET)
    assert not repeats("savings at the casino last spring and I", "lost our savings at the bank")
    assert not repeats("Money worries are common.", SAM_SECRET)
    assert not repeats("Thank you.", "Thank you.")  # too short to be anyone's secret


def test_only_private_words_hold_a_post(store: Any, space: Conversation) -> None:
    secret = store.add_message(
        space.id, "user", SAM_SECRET, None, {"sender": "Sam", "visibility": "Sam"}
    )
    said = store.add_message(
        space.id, "user", "We both want to save for a house by next summer", secret.id,
        {"sender": "Alex", "visibility": "shared"},
    )  # fmt: skip
    path = [secret, said]
    assert held_for("You both want to save for a house by next summer.", path) == []
    assert held_for("He lost our savings at the casino last spring.", path) == ["Sam"]


def _titled(store: Any, conversation_id: str | None, text: str, visibility: str) -> str:
    stored = store_user_message(
        store,
        NewMessage(
            profile="mediator",
            text=text,
            conversation_id=conversation_id,
            at_active_leaf=conversation_id is not None,
            meta={"sender": "Sam", "visibility": visibility},
            conversation_meta={"participants": ["Alex", "Sam"]},
        ),
    )
    return stored.conversation.id


def test_a_space_is_titled_only_from_what_everyone_may_read(store: Any) -> None:
    conversation_id = _titled(store, None, SAM_SECRET, "Sam")
    assert store.get_conversation(conversation_id).title == "Shared space with Alex and Sam"
    _titled(store, conversation_id, "Our budget for the summer", "shared")
    assert store.get_conversation(conversation_id).title == "Our budget for the summer"
    _titled(store, conversation_id, "Another secret of mine", "Sam")
    assert [c.title for c in store.list_conversations()] == ["Our budget for the summer"]


def test_a_one_user_conversation_is_still_titled_from_its_first_message(store: Any) -> None:
    stored = store_user_message(store, NewMessage(profile="ide-helper", text="Read app.py"))
    assert stored.conversation.title == "Read app.py"
