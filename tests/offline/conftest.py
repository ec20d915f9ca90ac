"""Fixtures for the offline model: a small real project folder and a tiny agent ⇄ tools graph."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import BaseTool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from agents.offline import OfflineChatModel

APP_PY = '''"""Load settings and greet users."""

import json
from pathlib import Path


def load_config(path: Path) -> dict:
    return json.loads(path.read_text())


class Greeter:
    def greet(self, name: str) -> str:
        return f"Hello, {name}"


def main() -> None:
    config = load_config(Path("config.json"))
    print(Greeter().greet(config["name"]))
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small project: a package with two modules, a README and a test."""
    (tmp_path / "src" / "demo").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "demo" / "app.py").write_text(APP_PY, encoding="utf-8")
    (tmp_path / "src" / "demo" / "util.py").write_text(
        "def slugify(text: str) -> str:\n    return text.lower().replace(' ', '-')\n",
        encoding="utf-8",
    )
    (tmp_path / "README.md").write_text(
        "# Demo\n\nA tiny demo project.\n\n## Usage\n\nRun it.\n", encoding="utf-8"
    )
    (tmp_path / "tests" / "test_app.py").write_text(
        "from demo.app import load_config\n\n\ndef test_load():\n    assert load_config\n",
        encoding="utf-8",
    )
    return tmp_path


@pytest.fixture
def model() -> OfflineChatModel:
    return OfflineChatModel()


def build_loop(
    model: BaseChatModel, tools: Sequence[BaseTool], system: str = "You are helpful."
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """START → agent → (tools → agent)* → END, the shape every profile's loop has."""
    bound = model.bind_tools(list(tools))

    async def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [await bound.ainvoke([SystemMessage(system), *state["messages"]])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode(list(tools)))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile()


async def run_turn(
    graph: CompiledStateGraph[Any, Any, Any, Any], text: str, sender: str | None = None
) -> list[BaseMessage]:
    """Run one user turn (said by ``sender``, the message ``name``) through a compiled loop;
    returns the new messages (AI and tool)."""
    message = HumanMessage(text, name=sender)
    out = await graph.ainvoke({"messages": [message]}, {"recursion_limit": 24})
    messages: list[BaseMessage] = out["messages"][1:]
    return messages
