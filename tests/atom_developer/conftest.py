"""Fixture atoms for the validator's tests, read from ``atoms/``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore

ATOMS = Path(__file__).parent / "atoms"


def atom_file(name: str) -> str:
    """The text of ``atoms/<name>.py``."""
    return (ATOMS / f"{name}.py").read_text(encoding="utf-8")


@pytest.fixture
def good_atoms() -> str:
    return atom_file("good")


@pytest.fixture
async def atoms(tmp_path: Path) -> AsyncIterator[tuple[AgentRuntime, SqliteConversationStore]]:
    """A runtime and its store on real SQLite files, for turns of the atom-developer graph."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    store = SqliteConversationStore(tmp_path / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield AgentRuntime(store, saver, data_dir=tmp_path / "data"), store
    store.close()
