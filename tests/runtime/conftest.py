"""Runtime fixtures: a checkpointer on disk and ``ChatOpenAI`` handles pointed at the fake server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from pydantic import SecretStr

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI


@pytest.fixture
async def checkpointer(tmp_path: Path) -> AsyncIterator[object]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield saver


@pytest.fixture
def openai_model(fake_openai: FakeOpenAI) -> Callable[..., ChatModelHandle]:
    """Build a real ``ChatOpenAI`` handle on the fake server (optionally with a short timeout)."""

    def build(timeout: float = 10.0) -> ChatModelHandle:
        config = ProviderConfig(
            provider="openai-compatible",
            model="fake-model",
            base_url=fake_openai.base_url,
            api_key=SecretStr("sk-test-not-a-real-key"),
            timeout=timeout,
        )
        return make_chat_model(config)

    return build


@pytest.fixture
def runtime(store: SqliteConversationStore, checkpointer: object) -> AgentRuntime:
    return AgentRuntime(store, checkpointer, context_messages=20, max_tool_rounds=5)  # type: ignore[arg-type]
