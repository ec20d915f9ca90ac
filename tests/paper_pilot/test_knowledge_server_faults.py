"""A knowledge server (a real FastMCP subprocess written for the test) that dies mid-call, hangs,
or answers over a megabyte: one sentence and the turn ends, or the answer is cut and marked."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from agents.mcp_servers.capped_stdio import MAX_MESSAGE_BYTES
from agents.profiles.paper_pilot.knowledge import client as knowledge_client
from agents.profiles.paper_pilot.knowledge.client import KnowledgeClient, KnowledgeError
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import ask

SERVER = '''
import asyncio, json, os, sys
from mcp.server.fastmcp import FastMCP

MODE = sys.argv[1]
server = FastMCP("faulty", log_level="WARNING")

# text alone: a structured copy would double the megabytes the server builds and sends
@server.tool(structured_output=False)
async def query_knowledge_hub(query: str, top_k: int = 5) -> str:
    """Search the notes (a question about everything is answered with 2 MB)."""
    if MODE == "die":
        os._exit(3)
    if MODE == "hang":
        await asyncio.sleep(3600)
    text = "Zebra stripes deter flies. " * (2 * 1024 * 1024 // 27 if "everything" in query else 1)
    return json.dumps({"results": [{"doc_id": "zoo/zebras", "title": "Zebras", "text": text}]})

server.run("stdio")
'''


HANG_LIMIT_S = 0.5
"""The call limit for the hung server: it never answers, so any limit is reached; the clock
starts once the server is up, so its start-up on a loaded machine does not count."""


def _connection(tmp_path: Path, mode: str) -> dict[str, Any]:
    script = tmp_path / "faulty_server.py"
    script.write_text(SERVER)
    return {"transport": "stdio", "command": sys.executable, "args": [str(script), mode]}


async def _query(tmp_path: Path, mode: str) -> list[Any]:
    client = KnowledgeClient("faulty", _connection(tmp_path, mode))
    try:
        return await client.query("why do zebras have stripes")
    finally:
        await client.aclose()


async def test_a_server_that_answers_is_read_as_usual_and_an_answer_over_1_mb_is_cut_and_marked(
    tmp_path: Path,
) -> None:
    client = KnowledgeClient("faulty", _connection(tmp_path, "ok"))
    try:
        hits = await client.query("why do zebras have stripes")
        assert [h.text for h in hits] == ["Zebra stripes deter flies. "]
        (huge,) = await client.query("tell me everything about zebras")
    finally:
        await client.aclose()
    assert len(huge.text) <= MAX_MESSAGE_BYTES
    assert "Zebra stripes deter flies." in huge.text
    assert huge.text.endswith("only its beginning is kept]")
    assert "[cut: the knowledge server's answer was over 1 MB" in huge.text


async def test_a_server_that_dies_mid_call_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeError) as failed:
        await _query(tmp_path, "die")
    sentence = str(failed.value)
    assert sentence.startswith("The knowledge server 'faulty' failed on query_knowledge_hub")
    assert "\n" not in sentence


async def test_a_server_that_hangs_is_stopped_after_the_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(knowledge_client, "CALL_TIMEOUT_S", HANG_LIMIT_S)
    client = KnowledgeClient("faulty", _connection(tmp_path, "hang"))
    try:
        with pytest.raises(
            KnowledgeError, match=r"did not answer query_knowledge_hub within 0\.5 s"
        ):
            await client.query("why do zebras have stripes")
        deadline = time.monotonic() + 30
        while client.usable:  # the session ends: the next call starts the server again
            assert time.monotonic() < deadline, "the hung server was never stopped"
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()


async def test_a_turn_on_a_hung_server_ends_with_the_sentence(
    pilot_runtime: tuple[AgentRuntime, SqliteConversationStore],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(knowledge_client, "CALL_TIMEOUT_S", HANG_LIMIT_S)
    runtime, store = pilot_runtime
    runtime.profile_settings = {"mcp": {"connections": {"faulty": _connection(tmp_path, "hang")}}}
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await ask(runtime, store, conversation.id, "What is LoRA?")
    assert "did not answer query_knowledge_hub within 0.5 s" in turn.reply.content
    assert any("retrieve:" in line and "did not answer" in line for line in turn.stages)
