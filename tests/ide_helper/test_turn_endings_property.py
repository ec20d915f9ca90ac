"""The guarantee of how a turn ends, over generated final-reply shapes, through the runtime on
the ide-helper with a real store and the real ``ChatOpenAI`` client over HTTP: complete (text,
or tools that ran on arguments received whole) or marked with one sentence, and no tool runs
on a reply the server cut, filtered or refused."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunEvent
from storage.sqlite_store import SqliteConversationStore
from tests.ide_helper.conftest import populate
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.reply_shapes import check_turn_ending, final_replies

WHOLE = {"path": "src/app.py"}


async def one_turn(folder: Path, model: Any) -> tuple[list[RunEvent], SqliteConversationStore]:
    project = populate(folder / "project")
    store = SqliteConversationStore(folder / "weaver.db")
    conversation = store.create_conversation("ide-helper", "t", meta={"project_root": str(project)})
    user = store.add_message(conversation.id, "user", "where is greet?", None)
    async with AsyncSqliteSaver.from_conn_string(str(folder / "checkpoints.db")) as saver:
        runtime = AgentRuntime(store, saver, max_tool_rounds=3)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=conversation.id, user_message_id=user.id, model=model
            )
        ]
    return events, store


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(final_replies("read_file", WHOLE, text="greet is in src/app.py."))
def test_a_turn_ends_complete_or_marked_and_no_cut_call_runs(
    fake_openai: FakeOpenAI, openai_model: Any, generated: tuple[Reply, dict[str, Any]]
) -> None:
    reply, shape = generated
    fake_openai.reset()
    fake_openai.script(reply, Reply("Done."), Reply("Done again."), Reply("Done at last."))
    with tempfile.TemporaryDirectory() as folder:
        events, store = asyncio.run(one_turn(Path(folder), openai_model()))
        try:
            check_turn_ending(events, store, shape, WHOLE)
        finally:
            store.close()
