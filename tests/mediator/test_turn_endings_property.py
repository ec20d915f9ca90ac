"""The guarantee of how a turn ends, over generated final-reply shapes, through the runtime on
the mediator with a real store and the real ``ChatOpenAI`` client over HTTP: a turn ends
complete (text, or tools that ran on arguments received whole) or marked with one sentence,
and no tool runs on a reply the server ended with ``length``, filtered or refused."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunEvent, RunFinished, ToolStarted
from agents.shared_space.space import new_space
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

WHOLE = {"recipient": "Alex", "content": "Thank you Alex, noted."}
CUT = json.dumps(WHOLE)[:30]
MARKS = {"refused", "filtered", "truncated", "empty"}


@st.composite
def final_replies(draw: st.DrawFn) -> tuple[Reply, dict[str, Any]]:
    content = draw(st.sampled_from(["", "   ", "\n\t", "Noted for both of you."]))
    calls = draw(st.sampled_from(["none", "whole", "cut"]))
    finish = draw(st.sampled_from(["stop", "tool_calls", "length", "content_filter", None]))
    refusal = draw(st.sampled_from([None, "I can't help with that."]))
    tool_calls = []
    if calls != "none":
        tool_calls = [ToolCall("reply_privately", WHOLE if calls == "whole" else CUT, id="c1")]
    reply = Reply(
        content=content,
        tool_calls=tool_calls,
        finish_reason=finish,
        no_finish_reason=finish is None,
        refusal=refusal,
    )
    return reply, {"content": content, "calls": calls, "finish": finish, "refusal": refusal}


async def one_turn(folder: Path, model: Any) -> tuple[list[RunEvent], SqliteConversationStore]:
    store = SqliteConversationStore(folder / "weaver.db")
    space = new_space(store, ("Alex", "Sam"), "property")
    user = store.add_message(
        space.id,
        "user",
        "I'm worried about rent.",
        None,
        meta={"sender": "Alex", "visibility": "Alex"},
    )
    async with AsyncSqliteSaver.from_conn_string(str(folder / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, max_tool_rounds=3)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=space.id, user_message_id=user.id, model=model
            )
        ]
    return events, store


def one_sentence(text: str) -> bool:
    return bool(text.strip()) and "\n" not in text and text.rstrip().endswith(".")


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(final_replies())
def test_a_turn_ends_complete_or_marked_and_no_cut_call_runs(
    fake_openai: FakeOpenAI, openai_model: Any, generated: tuple[Reply, dict[str, Any]]
) -> None:
    reply, shape = generated
    fake_openai.reset()
    fake_openai.script(reply, Reply("Done."), Reply("Done again."), Reply("Done at last."))
    with tempfile.TemporaryDirectory() as folder:
        events, store = asyncio.run(one_turn(Path(folder), openai_model()))
        try:
            check_turn(events, store, shape)
        finally:
            store.close()


def check_turn(
    events: list[RunEvent], store: SqliteConversationStore, shape: dict[str, Any]
) -> None:
    end = events[-1]
    assert isinstance(end, RunFinished | RunError), end
    started = [e for e in events if isinstance(e, ToolStarted)]
    stopped_by_server = shape["finish"] in ("length", "content_filter") or shape["refusal"]
    if stopped_by_server:
        assert started == [], "no call of a cut, filtered or refused reply runs"
        assert isinstance(end, RunError)
    for call in started:  # every call that ran had its arguments whole (or answered as broken)
        assert call.args in (WHOLE, {})
    if isinstance(end, RunFinished):
        assert end.status == "complete"
        leaf = store.get_message(end.leaf_id)
        assert leaf.status is MessageStatus.COMPLETE
        assert leaf.content.strip() or leaf.tool_calls
        return
    assert end.record is not None
    stored = store.get_message(end.record.id)
    assert stored.status is MessageStatus.ERROR
    assert stored.meta["error"] == end.error.user_message
    assert one_sentence(stored.meta["error"])
    if stopped_by_server or (shape["calls"] == "none" and not shape["content"].strip()):
        assert stored.meta.get("outcome") in MARKS
    if shape["refusal"]:
        assert stored.meta["outcome"] == "refused"
        assert stored.content == shape["refusal"]
    elif shape["finish"] == "content_filter":
        assert stored.meta["outcome"] == "filtered"
    elif shape["finish"] == "length":
        assert stored.meta["outcome"] == "truncated"
