"""The guarantee of how a turn ends, over generated final-reply shapes, through the runtime on
the mediator with a real store and the real ``ChatOpenAI`` client over HTTP: a turn ends
complete (text, or tools that ran on arguments received whole) or marked with one sentence,
and nothing of a reply the server cut, filtered or refused reaches a participant."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunEvent
from agents.shared_space.space import new_space
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.reply_shapes import check_turn_ending, final_replies, stopped_by_server

WHOLE = {"recipient": "Alex", "content": "Thank you Alex, noted."}


async def one_turn(folder: Path, model: Any) -> tuple[list[RunEvent], SqliteConversationStore, str]:
    store = SqliteConversationStore(folder / "weaver.db")
    space = new_space(store, ("Alex", "Sam"), "property")
    meta = {"sender": "Alex", "visibility": "Alex"}
    user = store.add_message(space.id, "user", "I'm worried about rent.", None, meta=meta)
    async with AsyncSqliteSaver.from_conn_string(str(folder / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, max_tool_rounds=3)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=space.id, user_message_id=user.id, model=model
            )
        ]
    return events, store, space.id


def delivered(store: SqliteConversationStore, conversation_id: str) -> list[str]:
    return [
        str(r.meta["delivered_content"])
        for r in store.list_messages(conversation_id)
        if r.meta.get("delivered_content")
    ]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(final_replies("reply_privately", WHOLE))
def test_a_turn_ends_complete_or_marked_and_no_cut_call_is_delivered(
    fake_openai: FakeOpenAI, openai_model: Any, generated: tuple[Reply, dict[str, Any]]
) -> None:
    reply, shape = generated
    fake_openai.reset()
    fake_openai.script(reply, Reply("Done."), Reply("Done again."), Reply("Done at last."))
    with tempfile.TemporaryDirectory() as folder:
        events, store, conversation_id = asyncio.run(one_turn(Path(folder), openai_model()))
        try:
            check_turn_ending(events, store, shape, WHOLE)
            sent = delivered(store, conversation_id)
            assert all(text == WHOLE["content"] for text in sent)
            if stopped_by_server(shape):
                assert sent == []
        finally:
            store.close()
