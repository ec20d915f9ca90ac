"""The ACP agent's first prompt imports nothing of the agent stack on its event loop (see
``tests/test_loop_imports.py``): the loop keeps answering the client (a cancel, another
session) while the stack loads. A real ``weaver-tui acp`` process, watched from inside
(``tests.support.loop_imports``), answers a first prompt from the suite's server."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.agent_process import agent_process, server_env, view_of
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
    assert len(fake_openai.chat_requests) == 1
