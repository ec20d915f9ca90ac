"""The conversation tree over ACP: ``session/list``, ``session/resume`` and ``session/fork``
through the SDK's client against a real ``weaver-tui acp``; each session keeps its own leaf;
after a turn the client is told the context used (``usage_update``) and a new conversation's
title (``session_info_update``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from acp import PROTOCOL_VERSION
from acp.exceptions import RequestError

from tests.acp.agent_process import AcpAgent, session_conversation
from tests.acp.recording_client import WAIT_S
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def _path(agent: AcpAgent, leaf_id: str) -> list[str]:
    with agent.open_store() as store:
        return [f"{r.role}:{r.content}" for r in store.path_to_root(leaf_id)]


async def test_capabilities_and_list_names_the_session_with_its_title_and_folder(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    fake_openai.script(Reply("Hello there."))
    initialized = await agent.conn.initialize(protocol_version=PROTOCOL_VERSION)
    capabilities = initialized.agent_capabilities
    assert capabilities is not None
    assert capabilities.session_capabilities is not None
    assert capabilities.session_capabilities.list is not None
    assert capabilities.session_capabilities.resume is not None
    assert capabilities.session_capabilities.fork is not None
    session = await agent.new_session(tmp_path)
    await agent.ask(session, "Say hello")
    folder = str(tmp_path.resolve())  # noqa: ASYNC240 (a path name, no file read)

    listed = await agent.conn.list_sessions(cwd=str(tmp_path))
    [info] = [s for s in listed.sessions if s.session_id == session]
    assert info.cwd == folder
    assert info.title
    assert info.updated_at
    elsewhere = await agent.conn.list_sessions(cwd=str(tmp_path / "nowhere"))
    assert session not in [s.session_id for s in elsewhere.sessions]
    with pytest.raises(RequestError):
        await agent.conn.list_sessions(cursor="not-a-cursor")


async def test_resume_goes_on_without_replaying(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    fake_openai.script(Reply("First answer."), Reply("Second answer."))
    session = await agent.start(tmp_path)
    await agent.ask(session, "First question")
    await asyncio.wait_for(agent.conn.close_session(session_id=session), WAIT_S)
    agent.client.forget()

    await agent.conn.resume_session(cwd=str(tmp_path), session_id=session, mcp_servers=[])
    assert agent.client.of_kind("user_message_chunk") == []  # nothing replayed
    await agent.ask(session, "Second question")
    with agent.open_store() as store:
        leaf = store.active_leaf(session_conversation(store, session).id)
        assert leaf is not None
    assert await _path(agent, leaf.id) == [
        "user:First question",
        "assistant:First answer.",
        "user:Second question",
        "assistant:Second answer.",
    ]


async def test_a_fork_is_a_branch_of_the_same_conversation_and_each_session_keeps_its_leaf(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    fake_openai.script(
        Reply("A1."), Reply("A2."), Reply("B in the fork."), Reply("A3."), Reply("C beside.")
    )
    session = await agent.start(tmp_path)
    await agent.ask(session, "Q1")
    await agent.ask(session, "Q2")
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        q1, a1 = store.path_to_root(store.active_leaf(conversation.id).id)[:2]  # type: ignore[union-attr]

    forked = await agent.conn.fork_session(
        cwd=str(tmp_path), session_id=session, mcp_servers=[], field_meta={"messageId": a1.id}
    )
    agent.client.sessions.add(forked.session_id)
    await agent.ask(forked.session_id, "QB")
    await agent.ask(session, "Q3")  # the first session goes on from its own leaf
    at_question = await agent.conn.fork_session(
        cwd=str(tmp_path), session_id=session, mcp_servers=[], field_meta={"messageId": q1.id}
    )
    agent.client.sessions.add(at_question.session_id)
    await agent.ask(at_question.session_id, "QC")

    with agent.open_store() as store:
        leaves = store.get_conversation(conversation.id).meta["acp_leaves"]
        assert {session, forked.session_id, at_question.session_id} <= set(leaves)
        assert len({c.id for c in store.list_conversations()} & {conversation.id}) == 1
    assert await _path(agent, leaves[forked.session_id]) == [
        "user:Q1",
        "assistant:A1.",
        "user:QB",
        "assistant:B in the fork.",
    ]
    assert await _path(agent, leaves[session]) == [
        "user:Q1",
        "assistant:A1.",
        "user:Q2",
        "assistant:A2.",
        "user:Q3",
        "assistant:A3.",
    ]
    # forked at the first question: another question in its place (a sibling, not a child)
    assert await _path(agent, leaves[at_question.session_id]) == ["user:QC", "assistant:C beside."]
    with pytest.raises(RequestError):
        await agent.conn.fork_session(
            cwd=str(tmp_path), session_id=session, mcp_servers=[], field_meta={"messageId": "nope"}
        )


async def test_after_a_turn_the_client_hears_the_context_used_and_the_title(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    session = await agent.start(tmp_path)
    await agent.ask(session, "What is ReWOO?")
    [usage] = agent.client.of_kind("usage_update")
    assert 0 < usage.used <= usage.size
    [info] = agent.client.of_kind("session_info_update")
    with agent.open_store() as store:
        assert info.title == session_conversation(store, session).title
    await agent.ask(session, "And ReAct?")
    assert len(agent.client.of_kind("usage_update")) == 2
    assert len(agent.client.of_kind("session_info_update")) == 1  # the title once
