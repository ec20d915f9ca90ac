"""The project's AGENTS.md reaches the model of a profile that works in a project, headed as
the project's, over the real provider path (``ChatOpenAI`` to the fake server) from a real
``weaver-tui acp``; a session that turned it off (its config option) sends none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acp.agent_process import AcpAgent, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.asyncio(loop_scope="package")


def _system(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list)
    return str(messages[0]["content"])


async def test_agents_md_is_sent_as_the_projects_until_turned_off(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    (tmp_path / "AGENTS.md").write_text("Use tabs, never spaces.", encoding="utf-8")
    fake_openai.script(Reply("Noted."), Reply("Again."))
    session = await agent.start(tmp_path)
    await agent.ask(session, "How do I indent?")
    await agent.conn.set_config_option(
        config_id="project_instructions", session_id=session, value=False
    )
    await agent.ask(session, "And now?")
    with agent.open_store() as store:  # kept with the conversation (the app and a reload)
        assert session_conversation(store, session).meta.get("project_instructions") == "off"

    first, second = (_system(body) for body in fake_openai.chat_bodies)
    assert "Use tabs, never spaces." in first
    assert "Project instructions (from AGENTS.md" in first
    assert "Use tabs, never spaces." not in second
