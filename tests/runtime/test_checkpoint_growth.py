"""A settled turn's checkpoints are dropped, so the checkpoint file stops growing turn after
turn; a turn paused for the user keeps its own (it resumes from them)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, run
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.usefixtures("researcher")


def _checkpoint_rows(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        count: int = connection.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0]
        return count


async def test_settled_turns_leave_no_checkpoints(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    counts = []
    parent = None
    for n in range(3):
        fake_openai.script(Reply(content=f"answer {n} " * 50))
        user = new_turn(store, "researcher", f"question {n}", parent_id=parent)
        events = await run(runtime, user, openai_model())
        parent = finish_of(events).leaf_id
        counts.append(_checkpoint_rows(tmp_path / "checkpoints.db"))
    assert counts == [0, 0, 0]
