"""The LangGraph checkpointer opens in the data folder and keeps graph state across reopenings."""

from __future__ import annotations

import operator
from pathlib import Path
from typing import Annotated, TypedDict

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from storage.checkpointer import open_checkpointer
from storage.paths import CHECKPOINTS_DB
from storage.store import StorageError


class CounterState(TypedDict):
    steps: Annotated[list[str], operator.add]


def _graph() -> StateGraph[CounterState]:
    builder = StateGraph(CounterState)
    builder.add_node("step", lambda state: {"steps": [f"step {len(state['steps']) + 1}"]})
    builder.add_edge(START, "step")
    builder.add_edge("step", END)
    return builder


async def test_a_graph_checkpoints_through_it_and_resumes_after_reopening(tmp_path: Path) -> None:
    config: RunnableConfig = {"configurable": {"thread_id": "conversation:message"}}
    async with open_checkpointer(tmp_path / "data") as saver:
        graph = _graph().compile(checkpointer=saver)
        await graph.ainvoke({"steps": ["start"]}, config)
        second = await graph.ainvoke({"steps": []}, config)
        assert second["steps"] == ["start", "step 2", "step 3"]
    assert (tmp_path / "data" / CHECKPOINTS_DB).is_file()

    async with open_checkpointer(tmp_path / "data") as saver:
        graph = _graph().compile(checkpointer=saver)
        state = await graph.aget_state(config)
        assert state.values["steps"] == ["start", "step 2", "step 3"]
        other = await graph.ainvoke({"steps": []}, {"configurable": {"thread_id": "other"}})
        assert other["steps"] == ["step 1"]


async def test_a_damaged_checkpoint_file_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / CHECKPOINTS_DB).write_bytes(b"not sqlite at all " * 200)
    with pytest.raises(StorageError, match="not a readable checkpoint database"):
        async with open_checkpointer(tmp_path):
            pass
