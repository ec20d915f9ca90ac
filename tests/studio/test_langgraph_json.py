"""``langgraph.json`` names each profile's graph as the LangGraph CLI loads it (a file path and
a variable), and the graphs it names compile and run without weaver-tui's runtime."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.pregel import Pregel
from langgraph.types import Command

from agents.profile_registry import PROFILE_NAMES
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.shared_notes import notes_settings_for
from weaver_tui.core.studio_graphs import variable_name

REPO = Path(__file__).resolve().parents[2]


def graph_specs() -> dict[str, str]:
    config = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))
    assert config["dependencies"] == ["."]
    return dict(config["graphs"])


def load_graph(spec: str) -> Any:
    """What ``langgraph dev`` does with ``./path/file.py:variable``."""
    path, variable = spec.rsplit(":", 1)
    module_spec = importlib.util.spec_from_file_location(
        f"studio_graphs_{abs(hash(path))}", REPO / path
    )
    assert module_spec is not None
    assert module_spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, variable)


def test_langgraph_json_names_every_profile_and_each_graph_compiles() -> None:
    specs = graph_specs()
    assert sorted(specs) == sorted(PROFILE_NAMES)
    assert all(spec.endswith(f":{variable_name(name)}") for name, spec in specs.items())
    for name, spec in specs.items():
        graph = load_graph(spec)
        assert isinstance(graph, Pregel), name
        drawn = {node.id for node in graph.get_graph(xray=True).nodes.values()}
        own = {node for node in drawn if node.startswith(f"{name}:") and "__" not in node}
        assert own, f"Studio draws {name}'s own nodes inside it: {drawn}"


@pytest.fixture
def offline_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WEAVER_PROVIDER", "offline")
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "config.yaml"))
    return tmp_path / "data"


async def test_a_graph_from_langgraph_json_runs_a_turn_on_the_offline_model(
    offline_settings: Path, notes_url: str, tmp_path: Path
) -> None:
    # paper-pilot reads the shipped notes from the server the worker's tests share
    settings = notes_settings_for(notes_url, tmp_path)
    (tmp_path / "config.yaml").write_text(json.dumps(settings), encoding="utf-8")
    graph = load_graph(graph_specs()["paper-pilot"])
    runnable = graph.builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "studio-1"}}

    result = await runnable.ainvoke(
        {"messages": [HumanMessage("How does ReWOO save tokens?")]}, config
    )

    reply = result["messages"][-1]
    assert isinstance(reply, AIMessage)
    assert str(reply.content).strip()
    with SqliteConversationStore(offline_settings / "weaver.db") as store:
        [conversation] = store.list_conversations()
        assert conversation.profile == "paper-pilot"
        assert conversation.meta["studio_thread"] == "studio-1"


async def test_the_patch_review_pauses_as_an_interrupt_and_resumes_in_studio(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_openai: FakeOpenAI
) -> None:
    for name, value in {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-studio-test-0123456789",
        "WEAVER_MODEL": "fake-model",
        "WEAVER_DATA_DIR": str(tmp_path / "data"),
        "WEAVER_CONFIG": str(tmp_path / "config.yaml"),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text('print("Hello")\n', encoding="utf-8")
    edit = {"path": "app.py", "start_line": 1, "end_line": 1, "new_content": 'print("Hi")'}
    fake_openai.script(
        Reply(tool_calls=[ToolCall("propose_edit", edit, id="c_studio")]), Reply("Done.")
    )
    graph = load_graph(graph_specs()["ide-helper"])
    runnable = graph.builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "studio-review"}}

    paused = await runnable.ainvoke({"messages": [HumanMessage("Say Hi")]}, config)
    assert paused["__interrupt__"][0].value["kind"] == "patch_review"
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == 'print("Hello")\n'

    result = await runnable.ainvoke(Command(resume={"decision": "accept"}), config)

    assert (tmp_path / "app.py").read_text(encoding="utf-8") == 'print("Hi")\n'
    assert result["messages"][-1].content == "Done."


def test_langgraph_json_is_what_the_profile_registry_gives() -> None:
    """The file is written from the registry (scripts/langgraph_json.py): a new profile's one
    registry line puts it in Studio too, and a file edited by hand out of step fails here."""
    spec = importlib.util.spec_from_file_location(
        "langgraph_json", REPO / "scripts" / "langgraph_json.py"
    )
    assert spec is not None
    assert spec.loader is not None
    script: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert (REPO / "langgraph.json").read_text(encoding="utf-8") == script.config_text()
    assert script.main(["--check"]) == 0
