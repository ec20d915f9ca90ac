"""paper-pilot fixtures: a runtime on real SQLite files, with the data folder where the profile
keeps its knowledge index and memory (the embedded MCP server runs as a real subprocess).

``notes_runtime`` is that runtime asking, instead, the knowledge server the worker's tests
share (``notes_url``, :mod:`tests.support.shared_notes`): for the tests whose questions only
need the shipped notes answered, not the embedded server's own start."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agents.offline import OfflineChatModel
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import weaver  # the real command
from tests.support.shared_notes import notes_settings_for

__all__ = ["weaver"]


@dataclass
class Turn:
    """What one turn showed and stored."""

    events: list[Any]
    reply: Any
    stages: list[str] = field(default_factory=list)

    @property
    def trace(self) -> dict[str, Any]:
        return dict(self.reply.meta.get("paper_pilot") or {})


def offline_handle(model: OfflineChatModel | None = None) -> ChatModelHandle:
    return ChatModelHandle(
        model=model or OfflineChatModel(), provider="offline", model_name="offline", label="offline"
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
async def pilot_runtime(
    tmp_path: Path, data_dir: Path
) -> AsyncIterator[tuple[AgentRuntime, SqliteConversationStore]]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    store = SqliteConversationStore(tmp_path / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield AgentRuntime(store, saver, data_dir=data_dir), store
    store.close()


@pytest.fixture
def notes_settings(notes_url: str, tmp_path: Path) -> dict[str, Any]:
    """paper-pilot's settings that name the shared notes server (its connection this test's
    own)."""
    return notes_settings_for(notes_url, tmp_path)


@pytest.fixture
def notes_runtime(
    pilot_runtime: tuple[AgentRuntime, SqliteConversationStore], notes_settings: dict[str, Any]
) -> tuple[AgentRuntime, SqliteConversationStore]:
    """:func:`pilot_runtime` asking the shared notes server (its memory stays the test's own)."""
    runtime, _ = pilot_runtime
    runtime.profile_settings = notes_settings
    return pilot_runtime


async def ask(
    runtime: AgentRuntime,
    store: SqliteConversationStore,
    conversation_id: str,
    text: str,
    parent: str | None = None,
    model: OfflineChatModel | None = None,
) -> Turn:
    if parent is None:
        leaf = store.active_leaf(conversation_id)
        parent = leaf.id if leaf else None
    user = store.add_message(conversation_id, "user", text, parent)
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation_id, user_message_id=user.id, model=offline_handle(model)
        )
    ]
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    reply = store.get_message(finished[-1].leaf_id)
    stages = [f"{e.node}: {e.text}" for e in events if isinstance(e, ev.NodeStatus)]
    return Turn(events, reply, stages)
