"""Mediator fixtures: a space with Alex and Sam, a checkpointer on disk, a real ChatOpenAI
handle on the fake server, and a runtime over the test's SQLite store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime.agent_runtime import AgentRuntime
from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore


@pytest.fixture
async def checkpointer(tmp_path: Path) -> AsyncIterator[AsyncSqliteSaver]:
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield saver


@pytest.fixture
def runtime(store: SqliteConversationStore, checkpointer: AsyncSqliteSaver) -> AgentRuntime:
    return AgentRuntime(store, checkpointer, context_messages=40, max_tool_rounds=5)


@pytest.fixture
def space(store: Any) -> Conversation:
    from agents.shared_space.space import new_space

    return new_space(store, ("Alex", "Sam"), "test space")
