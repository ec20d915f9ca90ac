"""Mediator fixtures: a space with Alex and Sam, a checkpointer on disk, a real ChatOpenAI
handle on the fake server, and a runtime over the test's SQLite store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.runtime import AgentRuntime
from storage.models import Conversation


@pytest.fixture
async def checkpointer(tmp_path: Path) -> AsyncIterator[Any]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield saver


@pytest.fixture
def runtime(store: Any, checkpointer: Any) -> AgentRuntime:
    return AgentRuntime(store, checkpointer, context_messages=40, max_tool_rounds=5)


@pytest.fixture
def openai_model(fake_openai: Any) -> Callable[[], ChatModelHandle]:
    def build() -> ChatModelHandle:
        return make_chat_model(
            ProviderConfig(
                provider="openai-compatible",
                model="fake-model",
                base_url=fake_openai.base_url,
                api_key=SecretStr("sk-test-not-a-real-key"),
                timeout=10.0,
            )
        )

    return build


@pytest.fixture
def space(store: Any) -> Conversation:
    from agents.profiles.mediator.space import new_space

    return new_space(store, ("Alex", "Sam"), "test space")
