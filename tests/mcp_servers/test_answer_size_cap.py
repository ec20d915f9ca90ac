"""An MCP server that answers 24 MB (a real FastMCP subprocess, reached over streamable HTTP,
answering with an SSE stream or one JSON body, or over stdio): the client reads at most a
megabyte of it in bounded memory, the answer is cut and marked, the session goes on, and a turn
whose tool answered more than the cap ends as usual."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver

from agents.mcp_servers import McpServerConfig
from agents.mcp_servers.capped_http import MAX_MESSAGE_BYTES
from agents.mcp_servers.connection import McpConnection
from agents.profiles.paper_pilot.knowledge.client import KnowledgeClient
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.user_message import NewMessage
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI
from tests.support.mcp_http import http_server
from tests.support.openai_script import Reply, ToolCall

FLOOD_SERVER = Path(__file__).with_name("flood_server.py")
FLOOD_MB = 24
"""The size of the flood server's answers in the memory tests: well over their bound."""
MARK = "[cut: the MCP server's answer was over 1 MB; only its beginning is kept]"
BOUNDED_BYTES = 16 * 1024 * 1024
"""What reading a flood answer may allocate at its peak: less than the answer itself, so the
client cannot have held it whole (the SDK alone would take three times the answer)."""
assert BOUNDED_BYTES < FLOOD_MB * 1024 * 1024


@pytest.fixture(scope="module")
def _flood_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    with http_server(
        ["-m", "tests.mcp_servers.flood_server", "--megabytes", str(FLOOD_MB)]
    ) as served:
        yield served


@pytest.fixture(params=["sse", "json"])
def flood_url(
    request: pytest.FixtureRequest, _flood_server: tuple[str, subprocess.Popen[bytes]]
) -> str:
    """The flood server's URL answering with an SSE stream or with one JSON body. It keeps no
    state between calls, so the module's tests share the one process serving both."""
    url = _flood_server[0]
    return url.removesuffix("/mcp") + "/json" if request.param == "json" else url


def _server(url: str) -> McpServerConfig:
    return McpServerConfig(name="flood", transport="streamable_http", url=url, approve="always")


async def test_a_huge_answer_is_cut_and_marked_in_bounded_memory(flood_url: str) -> None:
    await _cut_and_marked(McpConnection(_server(flood_url)))


async def test_a_huge_answer_over_stdio_is_cut_and_marked_in_bounded_memory() -> None:
    server = McpServerConfig(
        name="flood",
        command=sys.executable,
        args=(str(FLOOD_SERVER), "stdio", "--megabytes", str(FLOOD_MB)),
        approve="always",
    )
    await _cut_and_marked(McpConnection(server))


async def _cut_and_marked(connection: McpConnection) -> None:
    try:
        await connection.start()
        tracemalloc.start()
        try:
            result = await connection.call("flood", {}, 120)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        (block,) = result.content
        text = getattr(block, "text", "")
        assert peak < BOUNDED_BYTES
        assert text.startswith("Zebra stripes deter flies. ")
        assert text.endswith(MARK)
        assert len(text.encode()) <= MAX_MESSAGE_BYTES + len(MARK) + 1
        after = await connection.call("greet", {"name": "Ada"}, 60)  # the session goes on
        assert getattr(after.content[0], "text", "") == "Hello, Ada."
    finally:
        await connection.aclose()


async def test_a_turn_whose_tool_answers_over_the_cap_over_http_ends(
    flood_url: str,
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    over_the_cap = {"megabytes": 2}  # the turn's ending needs the cut, not the bounded memory
    fake_openai.script(
        Reply(tool_calls=[ToolCall("flood", over_the_cap)]), Reply("Zebras have stripes.")
    )
    runtime = AgentRuntime(store, checkpointer, mcp_servers=[_server(flood_url)])
    try:
        message = NewMessage(profile="ide-helper", text="tell me about zebras")
        events = [e async for e in runtime.send(message, model=openai_model())]
    finally:
        await runtime.aclose()
    finished = events[-1]
    assert isinstance(finished, ev.RunFinished), events
    assert finished.status == "complete"
    body = fake_openai.chat_requests[1].body
    assert body is not None
    (answer,) = [str(m["content"]) for m in body["messages"] if m["role"] == "tool"]
    assert answer.startswith("Zebra stripes deter flies.")
    assert "[cut:" in answer


async def test_a_knowledge_server_over_http_answering_a_huge_answer_is_cut_and_marked(
    flood_url: str,
) -> None:
    client = KnowledgeClient("flood", {"transport": "streamable_http", "url": flood_url})
    try:
        tracemalloc.start()
        try:
            hits = await client.query("why do zebras have stripes")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    finally:
        await client.aclose()
    assert peak < BOUNDED_BYTES
    (hit,) = hits
    assert "Zebra stripes deter flies." in hit.text
    assert hit.text.endswith(MARK)
