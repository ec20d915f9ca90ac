"""Runtime fixtures: a checkpointer on disk and ``ChatOpenAI`` handles pointed at the fake server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore


@pytest.fixture
async def checkpointer(tmp_path: Path) -> AsyncIterator[AsyncSqliteSaver]:
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield saver


@pytest.fixture
def runtime(store: SqliteConversationStore, checkpointer: AsyncSqliteSaver) -> AgentRuntime:
    return AgentRuntime(store, checkpointer, context_messages=20, max_tool_rounds=5)
