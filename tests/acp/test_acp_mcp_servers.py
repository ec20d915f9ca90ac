"""The MCP servers an editor passes with ``session/new`` serve that session's turns."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from acp.schema import AgentThoughtChunk, EnvVariable, McpServerStdio

from tests.acp.agent_process import AcpAgent
from tests.mcp_servers.conftest import SERVER_SCRIPT, ran
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")


def tickets_server(log: Path) -> McpServerStdio:
    return McpServerStdio(
        name="tickets",
        command=sys.executable,
        args=[str(SERVER_SCRIPT)],
        env=[EnvVariable(name="TICKETS_LOG", value=str(log))],
    )


def thoughts(agent: AcpAgent) -> str:
    return "".join(u.content.text for u in agent.client.updates if isinstance(u, AgentThoughtChunk))


async def test_a_tool_of_the_editors_server_runs_without_asking_and_its_result_reaches_the_model(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    log = tmp_path / "tickets.log"
    fake_openai.script(
        Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": "42"}, id="c_t")]),
        Reply("Ticket 42 is about a printer."),
        Reply(tool_calls=[ToolCall("close_ticket", {"ticket_id": "42"}, id="c_c")]),
        Reply("Closed."),
    )
    session = await agent.start(tmp_path, [tickets_server(log)])
    first = await agent.ask(session, "Look up ticket 42")
    second = await agent.ask(session, "Close it")

    assert (first.stop_reason, second.stop_reason) == ("end_turn", "end_turn"), agent.stderr_text()
    assert ran(log) == ["lookup_ticket 42", "close_ticket 42"]
    assert agent.client.permission_requests == [], "the editor's own servers are not asked about"
    offered = {t["function"]["name"] for t in fake_openai.chat_bodies[0]["tools"]}
    assert {"lookup_ticket", "close_ticket", "read_file"} <= offered
    answered = [m["content"] for m in fake_openai.chat_bodies[1]["messages"] if m["role"] == "tool"]
    assert any("Ticket 42: the printer" in text and "\x1b" not in text for text in answered)
    done = agent.client.of_kind("tool_call_update")
    assert [u.status for u in done] == ["completed", "completed"]
    assert "Ticket 42 is closed." in done[1].content[0].content.text


async def test_an_editors_server_that_cannot_start_is_named_and_the_turn_still_answers(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    broken = McpServerStdio(name="ghost", command=str(tmp_path / "no-such-server"), args=[], env=[])
    fake_openai.script(Reply("Answered without it."))
    session = await agent.start(tmp_path, [broken])
    response = await agent.ask(session, "Hello")

    assert response.stop_reason == "end_turn", agent.stderr_text()
    assert "ghost" in thoughts(agent)
    assert agent.client.agent_text() == "Answered without it."
    offered = {t["function"]["name"] for t in fake_openai.chat_bodies[0].get("tools", [])}
    assert "lookup_ticket" not in offered


async def test_closing_a_session_ends_the_servers_it_brought(tmp_path: Path) -> None:
    from weaver_tui.core.acp_agent.session_tools import open_session_tools
    from weaver_tui.core.acp_agent.sessions import AcpSession, mcp_server_settings

    settings = mcp_server_settings([tickets_server(tmp_path / "tickets.log")])
    session = AcpSession("acp-test", "ide-helper", tmp_path, mcp_servers=settings)
    session.toolset = await open_session_tools(settings, tmp_path)
    connections = list(session.toolset.connections)
    assert [c.state for c in connections] == ["ready"]
    assert connections[0].server.approve == "always"
    assert connections[0].server.cwd == str(tmp_path)

    await session.aclose()

    assert session.toolset is None
    assert [c.state for c in connections] == ["stopped"]


async def test_a_profile_that_calls_no_tools_says_the_editors_servers_are_not_used(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    log = tmp_path / "tickets.log"
    session = await agent.start(tmp_path, [tickets_server(log)])
    response = await agent.ask(session, "How does ReWOO save tokens?")

    assert response.stop_reason == "end_turn", agent.stderr_text()
    assert "MCP servers are not used" in thoughts(agent)
    assert agent.client.agent_text().strip()
    assert ran(log) == []
