"""The knowledge server's other tools: its collections narrow a question's search, an
exploratory question reads the summaries of the documents found, and ``kb list`` shows the
configured server's collections. The server is the real FastMCP one, as a subprocess; the
graph runs on a real ``ChatOpenAI`` client against the local OpenAI-compatible server."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

ROOT = Path(__file__).resolve().parents[2]
SERVER_MODULE = "agents.profiles.paper_pilot.knowledge.server"


def decision(name: str, **args: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, args)])


def route(question: str, *entities: str, intent: str = "factual", **extra: Any) -> Reply:
    """The router's decision on ``question`` (``extra``: the collections it names, if any)."""
    return decision("RouteDecision", intent=intent, confidence=0.9, reason="asked",
                    entities=list(entities), reformulated_query=question, **extra)  # fmt: skip


def passed() -> Reply:
    """The critic's verdict that lets the answer through."""
    return decision("CriticVerdict", score=0.9, passed=True, feedback="")


async def run_turn(
    runtime: AgentRuntime, store: SqliteConversationStore, model: Any, question: str
) -> tuple[list[Any], Any]:
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", question, None)
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=model
        )
    ]
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e for e in events if isinstance(e, ev.RunError)]
    return events, store.get_message(finished[-1].leaf_id)


def stage_lines(events: list[Any]) -> list[str]:
    return [f"{e.node}: {e.text}" for e in events if isinstance(e, ev.NodeStatus)]


def sources_sent_to_synthesis(fake_openai: FakeOpenAI) -> str:
    """The numbered sources the synthesis call was given."""
    body = next(b for b in fake_openai.chat_bodies if "Sources:" in json.dumps(b))
    text = body["messages"][-1]["content"]
    assert isinstance(text, str)
    return text.partition("Sources:")[2]


async def test_the_collection_a_question_asks_for_is_searched_alone(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., Any],
) -> None:
    runtime, store = notes_runtime
    question = "In my agents notes, how is a reward model used?"
    fake_openai.script(
        route(question, "reward model", collections=["Agents", "made-up"]),
        Reply("A critic scores the attempt [1]."),
        passed(),
    )

    events, reply = await run_turn(runtime, store, openai_model(), question)

    route_input = fake_openai.chat_bodies[0]["messages"][-1]["content"]
    assert "Collections of the knowledge base: agents, ml" in route_input
    lines = stage_lines(events)
    assert "scope: collections: agents, ml" in lines
    assert any(line.startswith("direct: retrieve:") and " in agents " in line for line in lines)
    sources = sources_sent_to_synthesis(fake_openai)
    assert "(agents/" in sources
    assert "(ml/" not in sources
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["scope"]["collections"] == ["agents", "ml"]
    assert stages["route"]["search_in"] == ["agents"]


async def test_a_collection_the_question_names_is_searched_alone_when_the_router_names_none(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., Any],
) -> None:
    runtime, store = notes_runtime
    question = "In my agents collection, how is a reward model used?"
    fake_openai.script(
        route(question, "reward model"), Reply("A critic scores the attempt [1]."), passed()
    )

    _, reply = await run_turn(runtime, store, openai_model(), question)

    sources = sources_sent_to_synthesis(fake_openai)
    assert "(agents/" in sources
    assert "(ml/" not in sources
    stages = {s["stage"]: s for s in reply.meta["paper_pilot"]["stages"]}
    assert stages["route"]["search_in"] == ["agents"]


async def test_a_question_that_asks_for_no_collection_searches_them_all(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., Any],
) -> None:
    runtime, store = notes_runtime
    question = "How is a reward model used by agents?"
    fake_openai.script(
        route(question, "reward model"), Reply("A reward model scores answers [1]."), passed()
    )

    events, _ = await run_turn(runtime, store, openai_model(), question)

    assert not any(" in agents" in line or " in ml" in line for line in stage_lines(events))
    sources = sources_sent_to_synthesis(fake_openai)
    assert "(agents/" in sources
    assert "(ml/" in sources


async def test_an_exploratory_question_reads_the_summaries_of_the_documents_found(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., Any],
) -> None:
    runtime, store = notes_runtime
    question = "What is known about interleaving reasoning and acting?"
    fake_openai.script(
        route(question, "ReAct", intent="exploratory"),
        decision("ReactStep", thought="look it up", action="search", query="ReAct reasoning"),
        decision("ReactStep", thought="enough", action="finish", query=""),
        Reply("ReAct interleaves thoughts and actions [1]."),
        passed(),
    )

    events, reply = await run_turn(runtime, store, openai_model(), question)

    sources = sources_sent_to_synthesis(fake_openai)
    first = sources.strip().splitlines()[0]
    # The summary and the passage it opens with are one source: the passage, with the
    # sections the summary lists.
    assert first.startswith("[1] ReAct: reasoning and acting (agents/react#Idea)")
    assert "Sections: Idea; Strengths and limits; In tool-calling models." in first
    assert "agents/react#Summary" not in sources
    assert any(line.startswith("react: summaries of ") for line in stage_lines(events))
    assert reply.meta["sources"][0]["title"] == "ReAct: reasoning and acting"


def _own_index(tmp_path: Path) -> Path:
    own = tmp_path / "own"
    own.mkdir()
    (own / "zebras.md").write_text("# Zebras\n\n## Stripes\nZebra stripes deter flies.\n")
    index = tmp_path / "own.sqlite"
    with KnowledgeIndex(index) as knowledge:
        knowledge.add_folder(own, "zoo")
    return index


def _configure(tmp_path: Path, connection: dict[str, Any]) -> None:
    config = {"mcp": {"connections": {"zoo": connection}}}
    (tmp_path / "config.yaml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML


def test_kb_list_shows_the_configured_servers_collections(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    index = _own_index(tmp_path)
    _configure(tmp_path, {
        "transport": "stdio", "command": sys.executable,
        "args": ["-m", SERVER_MODULE, "--index", str(index)],
        "env": {"PYTHONPATH": str(ROOT)},
    })  # fmt: skip

    listed = weaver("kb", "list")

    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        "knowledge server zoo (mcp.connections):",
        "zoo  1 documents  1 chunks",
    ]


def test_kb_list_says_in_one_sentence_when_the_server_cannot_be_reached(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    _configure(tmp_path, {"command": str(tmp_path / "no-such-server")})

    listed = weaver("kb", "list")

    assert listed.returncode == 1
    assert listed.stdout == ""
    [line] = listed.stderr.strip().splitlines()
    assert line.startswith("weaver-tui: The knowledge server 'zoo' could not be started")
    assert "mcp.connections" in line


async def test_the_collections_are_asked_once_a_turn_even_when_the_critic_sends_it_back(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., Any],
) -> None:
    runtime, store = notes_runtime
    question = "What does LoRA train?"
    in_ml = route(question, "LoRA", collections=["ml"])
    fake_openai.script(
        in_ml,
        Reply("LoRA trains everything [1]."),
        decision("CriticVerdict", score=0.2, passed=False, feedback="not what [1] says"),
        decision("Refinement", query="LoRA low-rank matrices"),
        in_ml,
        Reply("LoRA trains two low-rank matrices [1]."),
        passed(),
    )

    events, reply = await run_turn(runtime, store, openai_model(), question)

    assert reply.meta["paper_pilot"]["retries"] == 1
    asked = [line for line in stage_lines(events) if line.startswith("scope: collections")]
    assert asked == ["scope: collections: agents, ml"]
    routed = [b for b in fake_openai.chat_bodies if "RouteDecision" in json.dumps(b.get("tools"))]
    assert len(routed) == 2  # the retry routes again, with the list the turn already has
    listed = "Collections of the knowledge base: agents, ml"
    assert all(listed in body["messages"][-1]["content"] for body in routed)
    searched = [line for line in stage_lines(events) if line.startswith("direct: retrieve:")]
    assert len(searched) == 4  # each of the two searches: its start and its count
    assert all(" in ml" in line for line in searched)


OWN_SERVER = """
import json, sys
from mcp.server.fastmcp import FastMCP

server = FastMCP("search-only", log_level="WARNING")

@server.tool()
def query_knowledge_hub(query: str, top_k: int = 5) -> str:
    return json.dumps({"results": [{"doc_id": "own/otters", "title": "Otters",
                                    "section": "Paws", "text": "Otters hold hands."}]})

server.run("stdio")
"""


async def test_a_server_without_a_collection_list_is_searched_whole_and_says_so(
    pilot_runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., Any],
    tmp_path: Path,
) -> None:
    runtime, store = pilot_runtime
    script = tmp_path / "search_only.py"
    script.write_text(OWN_SERVER, encoding="utf-8")
    runtime.profile_settings = {"mcp": {"connections": {"own": {
        "transport": "stdio", "command": sys.executable, "args": [str(script)],
    }}}}  # fmt: skip
    question = "Do otters hold hands?"
    fake_openai.script(route(question, "otters"), Reply("They do [1]."), passed())

    events, reply = await run_turn(runtime, store, openai_model(), question)

    [scope] = [line for line in stage_lines(events) if line.startswith("scope:")]
    assert "list_collections" in scope
    assert scope.endswith("Searching every collection.")
    assert "(own/otters#Paws)" in sources_sent_to_synthesis(fake_openai)
    assert reply.meta["sources"][0]["title"] == "Otters"
