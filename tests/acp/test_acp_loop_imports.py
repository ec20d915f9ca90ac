"""The ACP agent's first prompt imports nothing of the agent stack on its event loop, and no
chat model is built there, the session's chosen model included (see
``tests/test_loop_imports.py``): the loop keeps answering the client (a cancel, another
session) while the stack loads. A real ``weaver-tui acp`` process, watched from inside
(``tests.support.loop_imports``), answers a first prompt from the suite's server."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.agent_process import KEY, agent_process, server_env, view_of
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.loop_imports import REPORT_VARIABLE

REPO = Path(__file__).resolve().parent.parent.parent


async def test_a_first_prompt_imports_no_agent_module_on_the_loop(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("hello back"))
    report = tmp_path / "loop-imports.json"
    env = server_env(fake_openai) | {REPORT_VARIABLE: str(report), "PYTHONPATH": str(REPO)}
    watched = agent_process(tmp_path, env=env, module="tests.support.loop_imports")
    async with watched as process, view_of(process) as agent:
        session = await agent.start(tmp_path)
        answer = await agent.ask(session, "hello")
        assert answer.stop_reason == "end_turn"
        assert "hello back" in agent.client.agent_text()
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["on_loop"] == [], result["on_loop"]
    assert result["built_on_loop"] == [], result["built_on_loop"]
    assert len(fake_openai.chat_requests) == 1


async def test_a_model_chosen_for_a_session_is_built_off_the_loop(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("hello back"))
    report = tmp_path / "loop-imports.json"
    env = {
        "WEAVER_PROVIDER": "openai",  # a provider with models to choose from
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": KEY,
        "WEAVER_MODEL": "gpt-4.1-mini",
        REPORT_VARIABLE: str(report),
        "PYTHONPATH": str(REPO),
    }
    watched = agent_process(tmp_path, env=env, module="tests.support.loop_imports")
    async with watched as process, view_of(process) as agent:
        session = await agent.start(tmp_path)
        await agent.conn.set_config_option(config_id="model", session_id=session, value="gpt-4o")
        answer = await agent.ask(session, "/model gpt-4.1")
        assert answer.stop_reason == "end_turn"
        answer = await agent.ask(session, "hello")
        assert answer.stop_reason == "end_turn"
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["built_on_loop"] == [], result["built_on_loop"]
    assert [body["model"] for body in fake_openai.chat_bodies] == ["gpt-4.1"]
