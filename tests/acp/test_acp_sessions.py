"""Cancel mid-reply, and ``session/load``: a conversation's active branch replayed, then
continued in the same conversation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from acp import PROTOCOL_VERSION
from acp.schema import TextContentBlock

from storage.models import MessageStatus
from tests.acp.agent_process import AcpAgent, session_conversation
from tests.acp.recording_client import WAIT_S
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_cancel_mid_reply_stops_the_turn_and_keeps_the_partial_reply(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    session, prompt = await agent.prompt_mid_reply(tmp_path, fake_openai)
    await agent.conn.cancel(session_id=session)
    response = await asyncio.wait_for(prompt, WAIT_S)

    assert response.stop_reason == "cancelled"
    streamed = agent.client.agent_text()
    assert streamed.startswith("word0 word1 word2 ")
    assert "word1999" not in streamed
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        reply = store.active_leaf(conversation.id)
        assert reply is not None
        assert reply.role == "assistant"
        assert reply.status == MessageStatus.CANCELLED
        assert reply.content.startswith("word0 word1 word2 ")


async def test_load_replays_the_active_branch_and_the_next_prompt_continues_it(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    (tmp_path / "notes.txt").write_text("The answer is 42.\n", encoding="utf-8")
    fake_openai.script(
        Reply(content="Reading.", tool_calls=[ToolCall("read_file", {"path": "notes.txt"})]),
        Reply("It says 42."),
        Reply("Yes, 42."),
    )
    session = await agent.start(tmp_path)
    await agent.ask(session, "What does notes.txt say?")
    # The editor goes away: the agent forgets the session; its conversation stays in the store.
    await asyncio.wait_for(agent.conn.close_session(session_id=session), WAIT_S)
    agent.client.forget()

    initialized = await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    assert initialized.agent_capabilities is not None
    assert initialized.agent_capabilities.load_session is True
    await agent.load(tmp_path, session)
    *replayed, offered = [u.session_update for u in agent.client.updates]
    users = agent.client.of_kind("user_message_chunk")
    [tool] = agent.client.of_kind("tool_call")
    replayed_text = agent.client.agent_text()
    await agent.ask(session, "Sure?")

    assert offered == "available_commands_update"
    assert replayed == [
        "user_message_chunk",
        "agent_message_chunk",
        "tool_call",
        "agent_message_chunk",
    ]
    assert [u.content.text for u in users] == ["What does notes.txt say?"]
    assert tool.status == "completed"
    assert "The answer is 42." in tool.content[0].content.text
    assert replayed_text == "Reading.It says 42."
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        branch = store.path_to_root(leaf.id)
        assert [r.content for r in branch if r.role == "user"] == [
            "What does notes.txt say?",
            "Sure?",
        ]
        assert branch[-1].content == "Yes, 42."


async def test_load_opens_a_conversation_started_elsewhere_by_its_id(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    agent.data_dir.mkdir(exist_ok=True)
    with agent.open_store() as store:
        conversation = store.create_conversation("paper-pilot", "From the app")
        question = store.add_message(conversation.id, "user", "What is RRF?", None)
        store.add_message(conversation.id, "assistant", "Rank fusion.", question.id)

    await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    await agent.load(tmp_path, conversation.id)

    texts = [
        (u.session_update, u.content.text)
        for u in agent.client.updates
        if isinstance(getattr(u, "content", None), TextContentBlock)
    ]
    assert texts == [
        ("user_message_chunk", "What is RRF?"),
        ("agent_message_chunk", "Rank fusion."),
    ]


async def test_loading_an_unknown_session_says_what_to_do(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    from acp import RequestError

    agent = offline_agent
    await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    try:
        await agent.load(tmp_path, "nope")
    except RequestError as error:
        message = str(error)
    else:
        raise AssertionError("loading an unknown session should fail")
    assert "weaver-tui conversations" in message
    assert "\n" not in message
