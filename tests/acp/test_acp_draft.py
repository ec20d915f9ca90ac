"""Over ACP a draft is a thought, the settled answer the message: an editor never shows
paper-pilot's rejected draft as the agent's answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp.schema import AgentThoughtChunk, TextContentBlock

from tests.acp.agent_process import AgentFactory, server_env
from tests.paper_pilot.drafts import REJECTED, SETTLED, script_rejected_then_settled
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_drafts_stream_as_thoughts_and_only_the_settled_answer_as_the_message(
    acp_agent: AgentFactory, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    script_rejected_then_settled(fake_openai)
    async with acp_agent("--profile", "paper-pilot", env=server_env(fake_openai)) as agent:
        session = await agent.start(tmp_path)
        response = await agent.ask(session, "What is LoRA?")

    assert response.stop_reason == "end_turn", agent.stderr_text()
    message = agent.client.agent_text()
    assert message.startswith(SETTLED.removesuffix(" [1]."))
    assert "**Sources**" in message
    assert REJECTED.removesuffix(" [1].") not in message
    thoughts = "".join(
        u.content.text
        for u in agent.client.updates
        if isinstance(u, AgentThoughtChunk) and isinstance(u.content, TextContentBlock)
    )
    assert REJECTED.removesuffix(" [1].") in thoughts  # streamed, as a draft
    assert "draft rejected" in thoughts
