"""Config options (model, profile), ``config_option_update``, and what a session is told after
each turn (``usage_update``, ``session_info_update``, the response's ``usage``), through the
SDK's client against the real ``weaver-tui acp`` process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from acp import PROTOCOL_VERSION, RequestError

from tests.acp.agent_process import KEY, AcpAgent, AgentFactory, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.asyncio(loop_scope="package")


def _current(options: Any, option_id: str) -> str:
    [option] = [o.root if hasattr(o, "root") else o for o in options if _id(o) == option_id]
    return str(option.current_value)


def _id(option: Any) -> str:
    return str((option.root if hasattr(option, "root") else option).id)


def _values(options: Any, option_id: str) -> list[str]:
    [option] = [o.root if hasattr(o, "root") else o for o in options if _id(o) == option_id]
    return [choice.value for choice in option.options]


async def test_the_profile_is_an_option_until_the_first_prompt(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    opened = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
    session = opened.session_id
    agent.client.sessions.add(session)
    assert opened.config_options is not None
    assert _current(opened.config_options, "profile") == "paper-pilot"
    assert "ide-helper" in _values(opened.config_options, "profile")
    assert _current(opened.config_options, "model") == "offline"
    # paper-pilot works in no project folder: no AGENTS.md option
    assert "project_instructions" not in {_id(o) for o in opened.config_options}

    changed = await agent.conn.set_config_option(
        config_id="profile", session_id=session, value="ide-helper"
    )
    assert _current(changed.config_options, "profile") == "ide-helper"
    [told] = agent.client.of_kind("config_option_update")
    assert _current(told.config_options, "profile") == "ide-helper"

    await agent.ask(session, "list the files")
    with agent.open_store() as store:
        assert session_conversation(store, session).profile == "ide-helper"

    for config_id, value in (
        ("profile", "paper-pilot"),  # the conversation belongs to ide-helper now
        ("profile", "no-such-profile"),
        ("model", "gpt-4o"),  # not a model of the configured provider
        ("temperature", "2"),
    ):
        with pytest.raises(RequestError) as refused:
            await agent.conn.set_config_option(config_id=config_id, session_id=session, value=value)
        assert "\n" not in str(refused.value)
    with agent.open_store() as store:
        assert session_conversation(store, session).profile == "ide-helper"


async def test_each_turn_reports_usage_and_a_new_title_once(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    session = await agent.start(tmp_path)
    await agent.ask(session, "What is reciprocal rank fusion?")
    [info] = agent.client.of_kind("session_info_update")
    [first_usage] = agent.client.of_kind("usage_update")
    await agent.ask(session, "And BM25?")

    assert info.title == "What is reciprocal rank fusion?"
    assert len(agent.client.of_kind("session_info_update")) == 1  # the title did not change
    usages = agent.client.of_kind("usage_update")
    assert len(usages) == 2
    assert first_usage.size == 32768  # the offline model's window
    assert 0 < first_usage.used < usages[1].used <= usages[1].size
    assert agent.client.updates[-1].session_update == "usage_update"  # after the turn's reply


async def test_a_chosen_model_serves_the_session_and_the_turn_reports_its_tokens(
    acp_agent: AgentFactory, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    env = {
        "WEAVER_PROVIDER": "openai",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": KEY,
        "WEAVER_MODEL": "gpt-4.1-mini",
    }
    async with acp_agent("--profile", "ide-helper", env=env) as agent:
        await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
        opened = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        session = opened.session_id
        agent.client.sessions.add(session)
        assert _values(opened.config_options, "model")[:2] == ["gpt-4.1-mini", "gpt-4.1"]
        await agent.conn.set_config_option(config_id="model", session_id=session, value="gpt-4o")
        fake_openai.script(Reply("Hello."))
        response = await agent.ask(session, "hello there")
        other = await agent.new_session(tmp_path)
        fake_openai.script(Reply("Hi."))
        await agent.ask(other, "hello again")

    models = [body["model"] for body in fake_openai.chat_bodies]
    assert models == ["gpt-4o", "gpt-4.1-mini"]  # the choice is the session's own
    assert response.usage is not None
    assert response.usage.total_tokens > 0
    [usage, _] = agent.client.of_kind("usage_update")
    assert usage.size > 0
