"""``session/close``: advertised, it cancels the running turn, ends the session's MCP servers
and forgets the session, while its conversation stays in the store."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from acp import PROTOCOL_VERSION, RequestError
from acp.schema import EnvVariable, McpServerStdio

from storage.models import MessageStatus
from tests.acp.agent_process import AcpAgent, session_conversation
from tests.acp.recording_client import WAIT_S
from tests.mcp_servers.conftest import SERVER_SCRIPT, ran
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_initialize_advertises_closing_sessions(offline_agent: AcpAgent) -> None:
    initialized = await offline_agent.conn.initialize(protocol_version=PROTOCOL_VERSION)

    capabilities = initialized.agent_capabilities
    assert capabilities is not None
    assert capabilities.session_capabilities is not None
    assert capabilities.session_capabilities.close is not None


async def test_closing_mid_reply_cancels_the_turn_and_keeps_the_conversation(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    session, prompt = await agent.prompt_mid_reply(tmp_path, fake_openai)
    await asyncio.wait_for(agent.conn.close_session(session_id=session), WAIT_S)
    response = await asyncio.wait_for(prompt, WAIT_S)
    with pytest.raises(RequestError) as closed:
        await agent.ask(session, "Still there?")
    await agent.load(tmp_path, session)

    assert response.stop_reason == "cancelled"
    assert f"There is no session {session}" in str(closed.value)
    assert "word1999" not in agent.client.agent_text()
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        reply = store.active_leaf(conversation.id)
        assert reply is not None
        assert reply.status == MessageStatus.CANCELLED
        assert reply.content.startswith("word0 word1 word2 ")


async def test_closing_an_unknown_session_says_what_to_do(offline_agent: AcpAgent) -> None:
    await offline_agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    with pytest.raises(RequestError) as error:
        await offline_agent.conn.close_session(session_id="acp-nope")

    assert "There is no session acp-nope" in str(error.value)
    assert "\n" not in str(error.value)


def _tickets_server_telling_its_pid(tmp_path: Path, log: Path) -> tuple[McpServerStdio, Path]:
    """The tests' tickets server, started through a script that first writes its process id."""
    pid_file = tmp_path / "tickets.pid"
    starter = tmp_path / "tickets_with_pid.py"
    starter.write_text(
        "import os, runpy, sys\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        f"sys.argv = [{str(SERVER_SCRIPT)!r}]\n"
        f"runpy.run_path({str(SERVER_SCRIPT)!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    server = McpServerStdio(
        name="tickets",
        command=sys.executable,
        args=[str(starter)],
        env=[EnvVariable(name="TICKETS_LOG", value=str(log))],
    )
    return server, pid_file


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _until_ended(pid: int) -> None:
    """Wait for the process to end: its pidfd turns readable then (Linux)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    ended = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(pidfd, ended.set)
    try:
        await asyncio.wait_for(ended.wait(), WAIT_S)
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)


async def test_closing_a_session_ends_the_mcp_servers_it_brought(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    log = tmp_path / "tickets.log"
    server, pid_file = _tickets_server_telling_its_pid(tmp_path, log)
    fake_openai.script(
        Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": "7"}, id="c_l")]),
        Reply("Ticket 7 is about the printer."),
    )
    session = await agent.start(tmp_path, [server])
    await agent.ask(session, "What is ticket 7?")
    pid = int(pid_file.read_text(encoding="utf-8"))
    assert _running(pid)

    await asyncio.wait_for(agent.conn.close_session(session_id=session), WAIT_S)
    await _until_ended(pid)
    another = await agent.start(tmp_path)

    assert ran(log) == ["lookup_ticket 7"]
    assert another != session
