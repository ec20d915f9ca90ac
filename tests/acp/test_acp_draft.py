"""Over ACP a draft is a thought, the settled answer the message: an editor never shows
paper-pilot's rejected draft as the agent's answer.

The paper-pilot conversation is loaded into the package's shared agent (``session/load``: a
loaded conversation keeps its own profile), so paper-pilot's turn runs on the package's fake
OpenAI server without a process of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import PROTOCOL_VERSION
from acp.schema import AgentThoughtChunk, TextContentBlock

from tests.acp.agent_process import AcpAgent
from tests.paper_pilot.drafts import REJECTED, SETTLED, script_rejected_then_settled
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_drafts_stream_as_thoughts_and_only_the_settled_answer_as_the_message(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    agent.data_dir.mkdir(exist_ok=True)
    with agent.open_store() as store:
        conversation = store.create_conversation("paper-pilot", "Drafts")
    script_rejected_then_settled(fake_openai)
    await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    await agent.load(tmp_path, conversation.id)
    response = await agent.ask(conversation.id, "What is LoRA?")

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
    with agent.open_store() as store:
        [asked] = [r for r in store.list_messages(conversation.id) if r.role == "user"]
        assert asked.content == "What is LoRA?"
