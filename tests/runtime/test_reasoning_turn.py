"""A thinking model's reasoning through a real turn: its own events, kept in meta, never resent."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import ReasoningDelta, RunError, RunFinished, TokenDelta, TurnStarted
from agents.runtime.history import turn_messages
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")


async def test_reasoning_content_deltas_become_reasoning_events_and_meta(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply(reasoning=["Let me ", "think."], deltas=["The answer ", "is 42."]))
    user = new_turn(store, "researcher", "What is the answer?")

    events = await run(runtime, user, openai_model())

    reply_id = of_type(events, TurnStarted)[0].reply_id
    reasoning = of_type(events, ReasoningDelta)
    assert {e.message_id for e in reasoning} == {reply_id}
    assert "".join(e.text for e in reasoning) == "Let me think."
    assert "".join(e.text for e in of_type(events, TokenDelta)) == "The answer is 42."
    first_answer = events.index(of_type(events, TokenDelta)[0])
    assert all(events.index(e) < first_answer for e in of_type(events, ReasoningDelta))
    reply = store.get_message(reply_id)
    assert reply.content == "The answer is 42."
    assert reply.meta["reasoning"] == "Let me think."
    assert reply.status is MessageStatus.COMPLETE


async def test_inline_think_split_across_chunks_is_separated(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(deltas=["<thi", "nk>Hmm, ", "six times seven.</th", "ink>\n\n", "It is ", "42."])
    )
    user = new_turn(store, "researcher", "What is six times seven?")

    events = await run(runtime, user, openai_model())

    assert "".join(e.text for e in of_type(events, ReasoningDelta)) == "Hmm, six times seven."
    assert "".join(e.text for e in of_type(events, TokenDelta)) == "It is 42."
    reply = store.get_message(of_type(events, RunFinished)[0].leaf_id)
    assert reply.content == "It is 42."
    assert reply.meta["reasoning"] == "Hmm, six times seven."


async def test_an_answer_that_ends_while_thinking_keeps_it_as_reasoning(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply(deltas=["<think>Still ", "going</thi"]))
    user = new_turn(store, "researcher", "Think hard")

    events = await run(runtime, user, openai_model())

    # Thinking and no answer is an empty reply: marked so, its reasoning kept.
    failed = of_type(events, RunError)[0]
    reply = store.get_message(failed.record.id)
    assert reply.content == ""
    assert reply.status is MessageStatus.ERROR
    assert reply.meta["outcome"] == "empty"
    assert reply.meta["reasoning"] == "Still going</thi"
    assert not of_type(events, TokenDelta)


async def test_the_next_turn_never_sends_the_reasoning_back(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(reasoning=["SECRET-THOUGHT-A"], deltas=["First answer."]),
        Reply(deltas=["<think>SECRET-THOUGHT-B</think>", "Second answer."]),
        Reply("Third answer."),
    )
    model = openai_model()
    first = new_turn(store, "researcher", "one")
    leaf = of_type(await run(runtime, first, model), RunFinished)[0].leaf_id
    second = new_turn(store, "researcher", "two", parent_id=leaf)
    leaf = of_type(await run(runtime, second, model), RunFinished)[0].leaf_id
    third = new_turn(store, "researcher", "three", parent_id=leaf)

    await run(runtime, third, model)

    messages = fake_openai.chat_bodies[-1]["messages"]
    sent = json.dumps(messages)
    assert "SECRET-THOUGHT" not in sent
    assert "reasoning_content" not in sent
    assert [m["content"] for m in messages if m["role"] == "assistant"] == [
        "First answer.",
        "Second answer.",
    ]
    history = json.dumps([m.model_dump() for m in turn_messages(store, third.id)])
    assert "SECRET-THOUGHT" not in history


async def test_inline_reasoning_of_a_tool_round_is_not_sent_with_its_call(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(
            deltas=["<think>SECRET-PLAN</think>", "Checking."],
            tool_calls=[ToolCall("search_knowledge_base", {"query": "BM25"}, id="call_t1")],
        ),
        Reply(reasoning=["SECRET-AGAIN"], deltas=["Done."]),
    )
    user = new_turn(store, "researcher", "what is BM25?")

    events = await run(runtime, user, openai_model())

    second_request = json.dumps(fake_openai.chat_bodies[-1]["messages"])
    assert "SECRET" not in second_request
    assert "Checking." in second_request
    path = store.path_to_root(of_type(events, RunFinished)[0].leaf_id)
    call_record, answer = path[1], path[-1]
    assert (call_record.content, call_record.meta["reasoning"]) == ("Checking.", "SECRET-PLAN")
    assert (answer.content, answer.meta["reasoning"]) == ("Done.", "SECRET-AGAIN")


def test_reasoning_streamed_so_far_is_on_disk_with_the_reply_still_marked_streaming(
    store: SqliteConversationStore,
) -> None:
    from agents.runtime.recorder import TurnRecorder

    user = new_turn(store, "researcher", "hi")
    recorder = TurnRecorder(store, user.conversation_id, user.id, {}, flush_interval=0.0)
    reply = recorder.open_reply()
    recorder.append_reasoning("Half a ")
    recorder.append_reasoning("thought")
    recorder.append("Half an answer")

    saved = store.get_message(reply.id)  # what a process killed now leaves behind
    assert saved.status is MessageStatus.STREAMING
    assert saved.content == "Half an answer"
    assert saved.meta["reasoning"] == "Half a thought"
