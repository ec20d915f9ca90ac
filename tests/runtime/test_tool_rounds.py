"""Tool calls become records and events; the round limit forces a final answer; errors reach the model."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.graph import FINAL_ANSWER_INSTRUCTION
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RecordSaved, RunFinished, TokenDelta, ToolFinished, ToolStarted
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")

QUERY = {"query": "BM25"}


async def test_streamed_tool_call_runs_the_tool_and_a_second_round_answers(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(
            content="Let me check.",
            tool_calls=[ToolCall("search_knowledge_base", QUERY, id="call_v1")],
            usage=(50, 10),
        ),
        Reply(deltas=["BM25 ", "ranks terms."], usage=(80, 5)),
    )
    user = new_turn(store, "researcher", "what is BM25?")

    events = await run(runtime, user, openai_model())

    started = of_type(events, ToolStarted)
    finished = of_type(events, ToolFinished)
    assert [(s.call_id, s.name, s.args) for s in started] == [
        ("call_v1", "search_knowledge_base", QUERY)
    ]
    assert finished[0].error is None
    assert "BM25" in finished[0].output
    assert finished[0].output.startswith("[")
    assert finished[0].duration_ms >= 0
    assert events.index(started[0]) < events.index(finished[0])

    path = store.path_to_root(finish_of(events).leaf_id)
    assert [r.role for r in path] == ["user", "assistant", "tool", "assistant"]
    call_record, tool_record, answer = path[1:]
    assert call_record.content == "Let me check."
    assert call_record.tool_calls == [
        {"id": "call_v1", "name": "search_knowledge_base", "args": QUERY}
    ]
    assert call_record.status is MessageStatus.COMPLETE
    assert tool_record.tool_call_id == "call_v1"
    assert tool_record.meta["name"] == "search_knowledge_base"
    assert tool_record.meta["error"] is None
    assert "duration_ms" in tool_record.meta
    assert tool_record.content == finished[0].output
    assert answer.content == "BM25 ranks terms."
    assert answer.meta["turn_usage"] == {
        "input_tokens": 130,
        "output_tokens": 15,
        "total_tokens": 145,
    }
    answer_text = [e.text for e in of_type(events, TokenDelta) if e.message_id == answer.id]
    assert "".join(answer_text) == "BM25 ranks terms."
    assert {e.message_id for e in of_type(events, RecordSaved)} >= {tool_record.id, answer.id}

    # the second request carried the tool call and its result, paired
    second = fake_openai.chat_bodies[1]["messages"]
    assert second[-2]["tool_calls"][0]["id"] == "call_v1"
    assert second[-1] == {
        "role": "tool",
        "content": tool_record.content,
        "tool_call_id": "call_v1",
        "name": "search_knowledge_base",  # servers such as Mistral refuse a tool result without
    }


async def test_the_next_turn_sees_earlier_tool_calls(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "ReWOO"}, id="call_s1")]),
        Reply("ReWOO plans first."),
        Reply("As I found before."),
    )
    first_user = new_turn(store, "researcher", "What is ReWOO?")
    first = await run(runtime, first_user, openai_model())
    follow_up = new_turn(store, "researcher", "And again?", parent_id=finish_of(first).leaf_id)

    await run(runtime, follow_up, openai_model())

    roles = [(m["role"], m.get("tool_call_id")) for m in fake_openai.last_body["messages"]]
    assert roles == [
        ("system", None),
        ("user", None),
        ("assistant", None),
        ("tool", "call_s1"),
        ("assistant", None),
        ("user", None),
    ]


async def test_after_max_tool_rounds_the_model_is_asked_without_tools(
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime = AgentRuntime(store, checkpointer, max_tool_rounds=2)
    fake_openai.script(
        *[
            Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": f"try {i}"})])
            for i in range(2)
        ],
        Reply("Here is what I found."),
    )
    user = new_turn(store, "researcher", "Search forever")

    events = await run(runtime, user, openai_model())

    bodies = fake_openai.chat_bodies
    assert len(bodies) == 3
    assert all("tools" in b for b in bodies[:2])
    assert "tools" not in bodies[2]
    assert FINAL_ANSWER_INSTRUCTION in bodies[2]["messages"][0]["content"]
    assert len(of_type(events, ToolFinished)) == 2
    assert store.get_message(finish_of(events).leaf_id).content == "Here is what I found."


async def test_a_tool_error_is_reported_and_the_model_continues(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"text": "BM25"}, id="call_bad")]),
        Reply("I passed the wrong argument; sorry."),
    )
    user = new_turn(store, "researcher", "search")

    events = await run(runtime, user, openai_model())

    (finished,) = of_type(events, ToolFinished)
    assert finished.error
    assert "query" in finished.error
    tool_record = store.path_to_root(finish_of(events).leaf_id)[-2]
    assert tool_record.role == "tool"
    assert tool_record.meta["error"] == finished.error
    sent = fake_openai.last_body["messages"][-1]
    assert sent["role"] == "tool"
    assert sent["tool_call_id"] == "call_bad"
    assert "query" in sent["content"]
    assert isinstance(events[-1], RunFinished)
    assert events[-1].status == "complete"


async def test_two_tool_calls_in_one_round_make_two_tool_records(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall("search_knowledge_base", {"query": "BM25"}, id="call_a"),
                ToolCall("search_knowledge_base", {"query": "Reflexion"}, id="call_b"),
            ]
        ),
        Reply("Both found."),
    )
    user = new_turn(store, "researcher", "BM25 and Reflexion?")

    events = await run(runtime, user, openai_model())

    path = store.path_to_root(finish_of(events).leaf_id)
    tools = [r for r in path if r.role == "tool"]
    assert sorted(str(r.tool_call_id) for r in tools) == ["call_a", "call_b"]
    assert "BM25" in next(r.content for r in tools if r.tool_call_id == "call_a")
    assert json.loads(json.dumps(path[1].tool_calls))[1]["args"] == {"query": "Reflexion"}
