"""The graph checkpointer the storage settings choose (:func:`storage.backend.open_checkpointer`):
on the data folder's file and on a real PostgreSQL server, it keeps graph state across
reopenings and stores a failed task's error only with keys scrubbed."""

from __future__ import annotations

import operator
from pathlib import Path
from typing import Annotated, TypedDict

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from storage.backend import StorageTarget, open_checkpointer
from storage.checkpointer import ScrubbingSerializer
from storage.secrets import remember_secret
from tests.support.postgres_server import PostgresServer, fresh_schema_url


class CounterState(TypedDict):
    steps: Annotated[list[str], operator.add]


def _graph() -> StateGraph[CounterState]:
    builder = StateGraph(CounterState)
    builder.add_node("step", lambda state: {"steps": [f"step {len(state['steps']) + 1}"]})
    builder.add_edge(START, "step")
    builder.add_edge("step", END)
    return builder


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> StorageTarget:
    if request.param == "sqlite":
        return StorageTarget(tmp_path / "data")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return StorageTarget(tmp_path / "data", fresh_schema_url(server))


async def test_graph_state_survives_reopening_on_either_backend(target: StorageTarget) -> None:
    config: RunnableConfig = {"configurable": {"thread_id": "conversation:message"}}
    async with open_checkpointer(target) as saver:
        graph = _graph().compile(checkpointer=saver)
        await graph.ainvoke({"steps": ["start"]}, config)
        second = await graph.ainvoke({"steps": []}, config)
        assert second["steps"] == ["start", "step 2", "step 3"]
    async with open_checkpointer(target) as saver:
        graph = _graph().compile(checkpointer=saver)
        state = await graph.aget_state(config)
        assert state.values["steps"] == ["start", "step 2", "step 3"]


async def test_a_failed_tasks_error_is_stored_without_the_key(target: StorageTarget) -> None:
    key = "sk-test-" + "q" * 40
    remember_secret(key)
    async with open_checkpointer(target) as saver:
        assert isinstance(saver.serde, ScrubbingSerializer)
        kind, data = saver.serde.dumps_typed(RuntimeError(f"401: bad key {key}"))
        assert key.encode() not in data
        assert "bad key" in str(saver.serde.loads_typed((kind, data)))
