"""paper-pilot's limits come from its settings section; the web fallback sends nothing without
a key and says so in one sentence; ``${VAR}`` is expanded in every string of an MCP
connection's config (``args``, ``url``, ``headers``, ``cwd``, ``env``), once, keys never."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.mcp_servers.references import expand_references
from agents.mcp_servers.servers import McpServerConfig
from agents.offline import OfflineChatModel
from agents.profiles.paper_pilot.graph import NO_WEB_KEY
from agents.profiles.paper_pilot.knowledge.client import KnowledgeClient, chosen_connection
from agents.profiles.paper_pilot.limits import Limits, limits_of
from agents.profiles.paper_pilot.offline import STEPS
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import ask
from tests.paper_pilot.test_follow_up_and_memory import _rejecting_critic
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

Runtime = tuple[AgentRuntime, SqliteConversationStore]
REPO = Path(__file__).resolve().parents[2]
ENVIRON = {"TOKEN": "s3cret", "ROOT": "/srv/rag", "PORT": "8123", "LOOP": "${TOKEN}"}

text = st.text(alphabet="abc/:-. ", max_size=6)
reference = st.sampled_from(["${TOKEN}", "${ROOT}", "${PORT}", "${LOOP}", "${UNSET}"])
strings = st.lists(st.one_of(text, reference), max_size=5).map("".join)
configs = st.recursive(
    strings,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["${TOKEN}", "url", "a"]), inner, max_size=3),
    ),
    max_leaves=12,
)


def expected(value: str) -> str:
    for name in ENVIRON:
        value = value.replace("${" + name + "}", "\0" + name + "\0")
    for name, replacement in ENVIRON.items():
        value = value.replace("\0" + name + "\0", replacement)
    return value


def walk(before: Any, after: Any) -> None:
    if isinstance(before, str):
        assert after == expected(before)
    elif isinstance(before, dict):
        assert list(after) == list(before)  # keys as written
        for key in before:
            walk(before[key], after[key])
    else:
        assert len(after) == len(before)
        for one, other in zip(before, after, strict=True):
            walk(one, other)


@settings(max_examples=150, deadline=None)
@given(config=configs)
def test_every_string_of_a_connection_is_expanded_once_and_keys_never(config: Any) -> None:
    walk(config, expand_references(config, ENVIRON))


def test_a_users_mcp_server_gets_its_args_url_headers_and_cwd_expanded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in ENVIRON.items():
        monkeypatch.setenv(name, value)
    stdio = McpServerConfig.from_mapping("rag", {"command": "${ROOT}/bin/serve",
        "args": ["--port", "${PORT}"], "cwd": "${ROOT}", "env": {"KEY": "${TOKEN}"}})  # fmt: skip
    assert (stdio.command, stdio.args, stdio.cwd) == ("/srv/rag/bin/serve", ("--port", "8123"), "/srv/rag")  # fmt: skip
    assert stdio.env == {"KEY": "s3cret"}
    http = McpServerConfig.from_mapping("web", {"transport": "streamable_http",
        "url": "http://127.0.0.1:${PORT}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}})  # fmt: skip
    assert http.url == "http://127.0.0.1:8123/mcp"
    assert http.headers == {"Authorization": "Bearer s3cret"}


async def test_a_knowledge_server_started_from_expanded_args_and_cwd_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PILOT_INDEX", str(tmp_path / "index.sqlite"))
    monkeypatch.setenv("PILOT_ROOT", str(REPO))
    monkeypatch.setenv("PILOT_PYTHONPATH", str(REPO))
    connection = {"command": sys.executable, "cwd": "${PILOT_ROOT}",
                  "args": ["-m", "agents.profiles.paper_pilot.knowledge.server",
                           "--index", "${PILOT_INDEX}", "--sample"],
                  "env": {"PYTHONPATH": "${PILOT_PYTHONPATH}"}}  # fmt: skip
    name, chosen = chosen_connection({"mcp": {"connections": {"notes": connection}}}, tmp_path)
    assert chosen["args"][-2] == str(tmp_path / "index.sqlite")
    client = KnowledgeClient(name, chosen)
    try:
        names = [c["name"] for c in await client.collections()]
    finally:
        await client.aclose()
    assert names == ["agents", "ml"]
    assert (tmp_path / "index.sqlite").exists()  # the expanded path, not "${PILOT_INDEX}"


@settings(max_examples=100, deadline=None)
@given(
    section=st.dictionaries(
        st.sampled_from(["max_retries", "plan_steps", "react_steps", "max_queries",
                         "memory_top_k", "follow_up_top_k"]),
        st.one_of(st.integers(-3, 30), st.booleans(), st.text(max_size=3), st.none()),
    ),
    web=st.one_of(st.integers(-2, 30), st.none()),
)  # fmt: skip
def test_limits_take_what_the_section_sets_and_defaults_otherwise(
    section: dict[str, Any], web: int | None
) -> None:
    limits = limits_of({"paper_pilot": section, "web_search": {"max_results": web}})
    for name, value in section.items():
        least = 0 if name in ("max_retries", "memory_top_k", "follow_up_top_k") else 1
        whole = isinstance(value, int) and not isinstance(value, bool) and value >= least
        assert getattr(limits, name) == (value if whole else getattr(Limits(), name))
    assert limits.web_max_results == (web if web is not None and web >= 1 else 5)


async def test_the_limits_of_the_settings_bound_retries_and_queries(
    notes_runtime: Runtime,
) -> None:
    runtime, store = notes_runtime
    runtime.profile_settings = {**runtime.profile_settings,
                                "paper_pilot": {"max_retries": 0, "max_queries": 1}}  # fmt: skip
    conversation = store.create_conversation("paper-pilot", "research")
    rejecting = OfflineChatModel().with_steps({**STEPS, "critic": _rejecting_critic})
    turn = await ask(runtime, store, conversation.id, "What is LoRA?", model=rejecting)
    assert turn.trace["retries"] == 0
    assert turn.trace["forced"]

    turn = await ask(runtime, store, conversation.id, "Compare DPO and RLHF in terms of cost")
    rewoo = next(stage for stage in turn.trace["stages"] if stage["stage"] == "rewoo")
    assert rewoo["queries"] == ["DPO cost"]


async def test_a_follow_up_recalls_more_facts_with_its_rewritten_question(
    notes_runtime: Runtime,
) -> None:
    runtime, store = notes_runtime
    runtime.profile_settings = {**runtime.profile_settings,
                                "paper_pilot": {"memory_top_k": 0, "follow_up_top_k": 5}}  # fmt: skip
    conversation = store.create_conversation("paper-pilot", "research")
    await ask(runtime, store, conversation.id, "What is LoRA?")
    turn = await ask(runtime, store, conversation.id, "how many parameters does it train?")
    stages = {s["stage"]: s for s in turn.trace["stages"]}
    assert turn.trace["intent"] == "follow_up"
    assert stages["load_memory"]["recalled"] == 0
    assert any("for the follow-up" in line for line in turn.stages)


class _CountingSearch(BaseHTTPRequestHandler):
    asked: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        type(self).asked.append(json.loads(self.rfile.read(length)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"results": []}')

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


async def test_a_web_search_with_no_key_is_not_sent_and_says_so_once(
    notes_runtime: Runtime, fake_openai: FakeOpenAI, openai_model: Any
) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _CountingSearch)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    runtime, store = notes_runtime
    url = f"http://127.0.0.1:{server.server_address[1]}/search"
    runtime.profile_settings = {**runtime.profile_settings,
                                "web_search": {"enabled": True, "url": url}}  # fmt: skip
    question = "What do otters eat?"
    fake_openai.script(Reply(tool_calls=[ToolCall("RouteDecision", {
        "intent": "factual", "confidence": 0.9, "entities": ["otters"],
        "reformulated_query": question})]))  # fmt: skip
    try:
        conversation = store.create_conversation("paper-pilot", "research")
        leaf = store.add_message(conversation.id, "user", question, None)
        events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
                  user_message_id=leaf.id, model=openai_model())]  # fmt: skip
    finally:
        server.shutdown()
    assert _CountingSearch.asked == []
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, events
    reply = store.get_message(finished[-1].leaf_id)
    assert reply.content.count(NO_WEB_KEY) == 1
    assert reply.meta["paper_pilot"]["settled"] == "not in your notes"
    assert len(fake_openai.chat_requests) == 1
