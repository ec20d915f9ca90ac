"""The offline demo acts per graph node on the node's state, is honest about everything else,
and stays within its size budget."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from langchain_core.messages import HumanMessage
from langgraph.graph import START, StateGraph
from pydantic import BaseModel
from typing_extensions import TypedDict

from agents.offline import OfflineChatModel, OfflineTurn, Reply
from agents.profiles.paper_pilot.offline import entities_of, route_of

ROOT = Path(__file__).resolve().parents[2]


class Verdict(BaseModel):
    word: str


class State(TypedDict, total=False):
    topic: str
    answer: str


def _graph(model: OfflineChatModel, structured: bool) -> object:
    async def judge(state: State) -> State:
        if structured:
            verdict = await model.with_structured_output(Verdict).ainvoke("anything at all")
            return {"answer": verdict.word}  # type: ignore[union-attr]
        return {"answer": str((await model.ainvoke([HumanMessage("anything")])).content)}

    builder = StateGraph(State)
    builder.add_node("judge", judge)
    builder.add_edge(START, "judge")
    return builder.compile()


def _echo_topic(turn: OfflineTurn) -> Reply:
    return turn.answer({"word": f"{turn.node}:{turn.state.get('topic')}"})


async def test_a_step_reads_its_node_and_the_graph_state_not_the_prompt() -> None:
    model = OfflineChatModel().with_steps({"judge": _echo_topic})
    out = await _graph(model, structured=True).ainvoke({"topic": "otters"})  # type: ignore[attr-defined]
    assert out["answer"] == "judge:otters"


async def test_a_node_without_a_step_gets_the_honest_sentence() -> None:
    model = OfflineChatModel().with_steps({"elsewhere": _echo_topic})
    out = await _graph(model, structured=False).ainvoke({"topic": "otters"})  # type: ignore[attr-defined]
    assert "offline demo model" in out["answer"]
    assert "WEAVER_API_KEY" in out["answer"]
    assert "Ollama" in out["answer"]


def test_an_image_is_named_as_something_it_cannot_see() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    text = OfflineChatModel().invoke([HumanMessage([{"type": "text", "text": "what?"}, image])])
    assert "cannot see images" in str(text.content)


def test_the_router_reads_the_questions_shape() -> None:
    assert route_of("What is RAG?", [])[0] == "factual"
    assert route_of("GraphRAG vs HyDE for long documents", [])[0] == "comparative"
    assert route_of("what about its costs?", ["user: What is LoRA?"])[0] == "follow_up"
    assert route_of("Which paper cites the model that beat GPT-4?", [])[0] == "multi_hop"
    assert entities_of("Compare ReWOO and ReAct: which uses fewer LLM calls?") == ["ReWOO", "ReAct"]


def _house() -> ModuleType:
    spec = importlib.util.spec_from_file_location("house", ROOT / "scripts" / "house.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_offline_model_stays_within_its_budget() -> None:
    lines, calls = _house().offline_budget(ROOT)
    assert lines <= 1500, lines
    assert calls <= 15, calls


def test_the_budget_counts_every_offline_file_and_every_regex_call(tmp_path: Path) -> None:
    (tmp_path / "agents" / "offline").mkdir(parents=True)
    (tmp_path / "weaver_tui").mkdir()
    (tmp_path / "agents" / "offline" / "a.py").write_text("import re\nre.sub('a', 'b', 'c')\n")
    (tmp_path / "weaver_tui" / "my_offline_bit.py").write_text("x = re.compile('a'); regex.match(x)\n")  # fmt: skip
    (tmp_path / "weaver_tui" / "other.py").write_text("re.compile('a')\n")
    assert _house().offline_budget(tmp_path) == (3, 3)


def test_no_offline_file_renames_the_regex_modules() -> None:
    for package in ("agents", "weaver_tui", "storage"):
        for path in (ROOT / package).rglob("*.py"):
            if "offline" in path.relative_to(ROOT).as_posix():
                text = path.read_text(encoding="utf-8")
                assert "import re as" not in text, path
                assert "from re import" not in text, path
                assert "import regex as" not in text, path
                assert "from regex import" not in text, path
