"""A patch is undone only in the folder it was accepted in: an ACP session that opens the
conversation in another folder (a second checkout of the same project, holding the very same
patched file) gets one sentence naming the folder, and that file is not written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.acp.agent_process import AcpAgent
from tests.support.applied_patch import PATCHED, seed_applied_patch

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_undo_in_another_checkout_of_the_project_writes_nothing(
    ide_helper_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = ide_helper_agent
    project = tmp_path / "project"
    with agent.as_its_user(), agent.open_store() as store:
        first_id, _tool_id = seed_applied_patch(store, project)
        conversation_id = store.get_message(first_id).conversation_id
    elsewhere = tmp_path / "second-checkout"
    shutil.copytree(project, elsewhere)
    await agent.conn.initialize(protocol_version=1)
    await agent.load(elsewhere, conversation_id)
    agent.client.answer = "accept"
    await agent.ask(conversation_id, "/undo")
    assert (elsewhere / "src" / "app.py").read_text() == PATCHED
    assert (project / "src" / "app.py").read_text() == PATCHED
    assert str(project) in agent.client.agent_text()  # where it can be undone
    agent.client.forget()
    await agent.ask(conversation_id, "/redo")  # still applied: nothing to re-apply anywhere
    assert (elsewhere / "src" / "app.py").read_text() == PATCHED
