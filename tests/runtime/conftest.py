"""Runtime fixtures: a checkpointer on disk and ``ChatOpenAI`` handles pointed at the fake server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore


@pytest.fixture
async def checkpointer(tmp_path: Path) -> AsyncIterator[object]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield saver


@pytest.fixture
def runtime(store: SqliteConversationStore, checkpointer: object) -> AgentRuntime:
    return AgentRuntime(store, checkpointer, context_messages=20, max_tool_rounds=5)  # type: ignore[arg-type]
