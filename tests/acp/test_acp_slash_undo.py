"""The commands an ACP session gained, through the SDK's client against the real
``weaver-tui acp``: ``/undo`` and ``/redo`` ask the client first (``session/request_permission``,
naming the patch's file) and write the file only on the user's yes; ``/export`` and ``/search``
answer as text; the commands offered are the table's for ACP (none the composer alone runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.slash_commands import commands_for
from tests.acp.agent_process import AcpAgent
from tests.support.applied_patch import ORIGINAL, PATCHED, seed_applied_patch

pytestmark = pytest.mark.asyncio(loop_scope="package")
WRITERS = [c.name for c in commands_for("acp") if c.writes_files]


def _seed(agent: AcpAgent, project: Path) -> str:
    with agent.as_its_user(), agent.open_store() as store:
        first_id, _tool_id = seed_applied_patch(store, project)
        return store.get_message(first_id).conversation_id


async def test_undo_asks_first_and_writes_only_on_yes(
    ide_helper_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = ide_helper_agent
    project = tmp_path / "project"
    conversation_id = _seed(agent, project)
    source = project / "src" / "app.py"
    await agent.conn.initialize(protocol_version=1)
    await agent.load(project, conversation_id)
    [offered] = agent.client.of_kind("available_commands_update")
    names = {c.name for c in offered.available_commands}
    assert names == {c.name for c in commands_for("acp")}
    assert {"undo", "redo", "export", "search"} <= names
    assert "fork" not in names

    agent.client.answer = "reject"
    for name in WRITERS:  # every command that writes files asks first; no: nothing written
        agent.client.forget()
        if name == "redo":
            agent.client.answer = "accept"
            await agent.ask(conversation_id, "/undo")  # something to redo
            agent.client.answer = "reject"
            agent.client.forget()
        was = source.read_text()
        refused = await agent.ask(conversation_id, f"/{name}")
        assert refused.stop_reason == "end_turn"
        [question] = agent.client.permission_requests
        assert "src/app.py" in question.title
        assert source.read_text() == was
    agent.client.answer = "accept"
    await agent.ask(conversation_id, "/redo")
    assert source.read_text() == PATCHED

    agent.client.forget()
    agent.client.answer = "accept"
    await agent.ask(conversation_id, "/undo")
    assert len(agent.client.permission_requests) == 1
    assert source.read_text() == ORIGINAL
    assert "src/app.py" in agent.client.agent_text()

    agent.client.forget()
    agent.client.answer = None  # the request cancelled: nothing written either
    await agent.ask(conversation_id, "/redo")
    assert len(agent.client.permission_requests) == 1
    assert source.read_text() == ORIGINAL
    agent.client.answer = "accept"
    await agent.ask(conversation_id, "/redo")
    assert source.read_text() == PATCHED

    agent.client.forget()
    await agent.ask(conversation_id, "/export")
    assert "say Hi instead" in agent.client.agent_text()
    agent.client.forget()
    await agent.ask(conversation_id, "/search greet")
    assert "greet" in agent.client.agent_text()
    assert not agent.client.permission_requests  # only what writes files asks
