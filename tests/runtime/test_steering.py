"""Steering a running turn: a message sent into it joins its next model call after the tool
round under way, recorded in the tree where it was read; one the turn never reads is handed
back. Real ``ChatOpenAI`` over HTTP to the fake server, real SQLite files.

Generated: wherever in the turn's event stream the steers arrive (before, during, after tool
rounds, after the end), each is read by exactly one model call (and recorded once, between
the round it followed and the reply that read it) or handed back, never both, never lost."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.graph.steering import Steer
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RecordSaved, RunEvent, RunFinished
from agents.runtime.recorder import STEER_META_KEY
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.usefixtures("researcher")


def tool_round(number: int) -> Reply:
    return Reply(
        content=f"Looking {number}.",
        tool_calls=[
            ToolCall("search_knowledge_base", {"query": f"q{number}"}, id=f"call_{number}")
        ],
    )


async def steered_turn(
    runtime: AgentRuntime,
    store: SqliteConversationStore,
    model: ChatModelHandle,
    steer_after: dict[int, list[str]],
) -> tuple[list[RunEvent], list[tuple[str, Steer | None]], str]:
    """Run a turn, sending the steers ``steer_after[k]`` after its ``k``-th event (an index
    past the end sends them after the turn has ended)."""
    user = new_turn(store, "researcher", "find things")
    sent: list[tuple[str, Steer | None]] = []
    events: list[RunEvent] = []

    def steer(index: int) -> None:
        for text in steer_after.get(index, []):
            sent.append((text, runtime.steer(user.conversation_id, text)))

    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=model
    ):
        events.append(event)
        steer(len(events) - 1)
    for index in sorted(steer_after):
        if index >= len(events):
            steer(index)
    return events, sent, user.conversation_id


def user_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


async def test_a_steer_joins_the_next_call_and_is_stored_where_it_was_read(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(tool_round(1), "Found it, in French.")
    user = new_turn(store, "researcher", "find things")
    steer: Steer | None = None
    events: list[RunEvent] = []
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
    ):
        events.append(event)
        if steer is None and isinstance(event, RecordSaved) and event.record.role == "tool":
            steer = runtime.steer(user.conversation_id, "answer in French")
    assert steer is not None
    assert steer.state == "joined"
    first, second = fake_openai.chat_bodies
    assert user_texts(first) == ["find things"]
    assert user_texts(second) == ["find things", "answer in French"]
    assert second["messages"][-1] == {"role": "user", "content": "answer in French"}
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    path = store.path_to_root(finished.leaf_id)
    assert [(r.role, r.content) for r in path] == [
        ("user", "find things"),
        ("assistant", "Looking 1."),
        ("tool", path[2].content),
        ("user", "answer in French"),
        ("assistant", "Found it, in French."),
    ]
    assert path[3].meta[STEER_META_KEY] is True
    saved = [e.record.id for e in events if isinstance(e, RecordSaved)]
    assert path[3].id in saved  # the front end hears of it as of any record of the turn


async def test_a_steer_that_comes_after_the_last_call_is_handed_back(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script("A plain answer, no tools.")
    _events, sent, conversation_id = await steered_turn(
        runtime, store, openai_model(), {1: ["too late"], 10_000: ["after the end"]}
    )
    assert [(text, s.state if s else None) for text, s in sent] == [
        ("too late", "returned"),
        ("after the end", None),
    ]
    assert all("too late" not in user_texts(b) for b in fake_openai.chat_bodies)
    assert "too late" not in [m.content for m in store.list_messages(conversation_id)]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rounds=st.integers(0, 2),
    moments=st.lists(st.integers(0, 40), max_size=4),
)
def test_a_steer_is_never_lost_and_never_read_twice(
    store: SqliteConversationStore,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
    rounds: int,
    moments: list[int],
) -> None:
    fake_openai.reset()
    fake_openai.script(*[tool_round(n) for n in range(rounds)], "Done.")
    plan: dict[int, list[str]] = {}
    for number, moment in enumerate(moments):
        plan.setdefault(moment, []).append(f"steer {number}")

    async def scenario() -> tuple[list[RunEvent], list[tuple[str, Steer | None]], str]:
        async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
            runtime = AgentRuntime(store, saver, max_tool_rounds=5)
            return await steered_turn(runtime, store, openai_model(), plan)

    events, sent, conversation_id = asyncio.run(scenario())
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "complete"
    path = store.path_to_root(finished.leaf_id)
    stored = [r.content for r in path if r.meta.get(STEER_META_KEY)]
    joined = [text for text, s in sent if s is not None and s.state == "joined"]
    returned = [text for text, s in sent if s is not None and s.state == "returned"]
    refused = [text for text, s in sent if s is None]
    assert sorted(joined + returned + refused) == sorted(f"steer {n}" for n in range(len(moments)))
    tally(f"steers read: {bool(joined)}, handed back: {bool(returned)}")
    assert stored == joined  # recorded once each, in the order sent, only the ones read
    bodies = fake_openai.chat_bodies
    for text in joined + returned + refused:
        reads = [i for i, body in enumerate(bodies) if text in user_texts(body)]
        if text in joined:
            # read first by a call that follows a tool round, then kept in the turn's history
            assert reads
            assert reads == list(range(reads[0], len(bodies)))
            assert bodies[reads[0]]["messages"][-1]["role"] == "user"
        else:
            assert reads == []  # handed back (or refused): never sent to the model
    for index, record in enumerate(path):
        if record.meta.get(STEER_META_KEY):
            before = index - 1
            while path[before].meta.get(STEER_META_KEY):  # steers read by the same call
                before -= 1
            assert path[before].role == "tool"  # read after a tool round's results
            assert path[index + 1].role in ("assistant", "user")
    all_records = store.list_messages(conversation_id)
    assert len([r for r in all_records if r.meta.get(STEER_META_KEY)]) == len(joined)


async def test_a_steer_keeps_who_said_it_and_to_whom_and_nothing_else(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(tool_round(1), "Noted.")
    user = new_turn(store, "researcher", "find things")
    meta = {"sender": "Alex", "visibility": "Alex", "patch_status": "applied", "approved": True}
    events: list[RunEvent] = []
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
    ):
        events.append(event)
        if isinstance(event, RecordSaved) and event.record.role == "tool":
            runtime.steer(user.conversation_id, "only for the mediator", meta)
    steered = [
        e.record for e in events if isinstance(e, RecordSaved) and e.record.meta.get(STEER_META_KEY)
    ]
    assert len(steered) == 1
    kept = {k: v for k, v in steered[0].meta.items() if k != "status"}
    assert kept == {"sender": "Alex", "visibility": "Alex", STEER_META_KEY: True}
    sent = fake_openai.chat_bodies[1]["messages"][-1]
    assert sent["role"] == "user"
    assert sent["name"] == "Alex"
    assert "only for the mediator" in sent["content"]
    assert sent["content"] != "only for the mediator"  # marked as private to its sender
