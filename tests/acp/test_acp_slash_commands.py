"""Slash commands over ACP, through the SDK's client against the real ``weaver-tui acp``:
the table as available commands, a command answered without touching the tree, an unknown one
refused, ``//`` sending the text."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import RequestError

from tests.acp.agent_process import AcpAgent, session_conversation

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_commands_are_offered_and_answered_without_touching_the_tree(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    session = await agent.start(tmp_path)
    help_response = await agent.ask(session, "/help")
    [offered] = agent.client.of_kind("available_commands_update")
    assert {"help", "model", "profile"} <= {c.name for c in offered.available_commands}
    assert agent.client.updates[0] is offered
    assert help_response.stop_reason == "end_turn"
    assert "/model" in agent.client.agent_text()

    assert "kb" in {c.name for c in offered.available_commands}  # paper-pilot's own
    agent.client.forget()
    await agent.ask(session, "/profile ide-helper")
    assert agent.client.of_kind("config_option_update")
    assert "ide-helper" in agent.client.agent_text()
    [retold] = agent.client.of_kind("available_commands_update")  # without paper-pilot's
    assert "kb" not in {c.name for c in retold.available_commands}
    agent.client.forget()

    with pytest.raises(RequestError) as refused:
        await agent.ask(session, "/etc/hosts is missing")
    assert "//" in str(refused.value)
    assert "\n" not in str(refused.value)
    with agent.open_store() as store:  # no command and no refused message was stored
        assert not [c for c in store.list_conversations() if c.meta.get("acp_session") == session]

    await agent.ask(session, "//etc is a folder")
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        users = [r.content for r in store.list_messages(conversation.id) if r.role == "user"]
    assert conversation.profile == "ide-helper"
    assert users == ["/etc is a folder"]
    assert len(agent.client.of_kind("available_commands_update")) == 0  # told once more only


async def test_a_loaded_session_is_told_the_commands(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    session = await agent.start(tmp_path)
    await agent.ask(session, "What is reciprocal rank fusion?")
    agent.client.forget()
    await agent.load(tmp_path, session)
    assert len(agent.client.of_kind("available_commands_update")) == 1
