"""A prompt sent while the session's turn runs queues: it is sent when the turn ends, below
that turn's reply; cancelling the session ends the queued prompt too, storing nothing of it.
Through the SDK's client against the real ``weaver-tui acp``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from acp import text_block

from tests.acp.agent_process import AcpAgent, session_conversation
from tests.acp.recording_client import WAIT_S
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_a_prompt_sent_mid_turn_runs_after_it_below_its_reply(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    session, first = await agent.prompt_mid_reply(tmp_path, fake_openai)
    fake_openai.script(Reply("Second answer."))
    second = asyncio.ensure_future(
        agent.conn.prompt(session_id=session, prompt=[text_block("Then this")])
    )
    fake_openai.release()
    first_done, second_done = await asyncio.wait_for(asyncio.gather(first, second), WAIT_S)

    assert (first_done.stop_reason, second_done.stop_reason) == ("end_turn", "end_turn")
    assert len(agent.client.of_kind("agent_thought_chunk")) == 1  # told that it waits
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        branch = store.path_to_root(leaf.id)
    assert [r.role for r in branch] == ["user", "assistant", "user", "assistant"]
    assert branch[2].content == "Then this"
    assert branch[1].content.startswith("word0 ")
    assert branch[3].content == "Second answer."


async def test_cancel_ends_the_queued_prompt_too(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    session, first = await agent.prompt_mid_reply(tmp_path, fake_openai)
    second = asyncio.ensure_future(
        agent.conn.prompt(session_id=session, prompt=[text_block("Then this")])
    )
    await agent.client.wait_for(lambda: bool(agent.client.of_kind("agent_thought_chunk")))
    await agent.conn.cancel(session_id=session)
    first_done, second_done = await asyncio.wait_for(asyncio.gather(first, second), WAIT_S)

    assert (first_done.stop_reason, second_done.stop_reason) == ("cancelled", "cancelled")
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        texts = [r.content for r in store.list_messages(conversation.id) if r.role == "user"]
    assert texts == ["Talk for a long time"]
