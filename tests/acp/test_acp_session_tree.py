"""``session/list``, ``session/resume`` and ``session/fork`` through the SDK's client, against
the real ``weaver-tui acp`` process (paper-pilot on the offline model)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from acp import RequestError

from storage.sqlite_store import SqliteConversationStore
from tests.acp.agent_process import AcpAgent, session_conversation
from tests.acp.recording_client import WAIT_S

pytestmark = pytest.mark.asyncio(loop_scope="package")


def _user_records(
    store: SqliteConversationStore, conversation_id: str
) -> dict[str, tuple[str | None, int]]:
    """Each user message's text: its parent and its version."""
    return {
        r.content: (r.parent_id, r.version)
        for r in store.list_messages(conversation_id)
        if r.role == "user"
    }


async def test_list_pages_the_profiles_sessions_newest_first_with_title_and_folder(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    resolved = tmp_path.resolve()  # noqa: ASYNC240 (a test's own folder)
    session = await agent.start(tmp_path)
    await agent.ask(session, "What is reciprocal rank fusion?")
    with agent.open_store() as store:
        stored = [
            store.create_conversation(
                "paper-pilot", f"Stored {number}", meta={"acp_cwd": str(tmp_path)}
            ).id
            for number in range(60)
        ]
        hidden = {
            store.create_conversation("paper-pilot", "Elsewhere", meta={"acp_cwd": "/x/y"}).id,
            store.create_conversation("ide-helper", "Other", meta={"acp_cwd": str(tmp_path)}).id,
        }

    listed = []
    cursor: str | None = None
    pages = 0
    while True:
        response = await agent.conn.list_sessions(cwd=str(tmp_path), cursor=cursor)
        listed += response.sessions
        pages += 1
        cursor = response.next_cursor
        if cursor is None:
            break

    known = {*stored, session}
    ours = [s for s in listed if s.session_id in known]
    assert pages >= 2
    assert len({s.session_id for s in listed}) == len(listed)
    assert [s.session_id for s in ours] == [*reversed(stored), session]
    assert [s.title for s in ours[:2]] == ["Stored 59", "Stored 58"]
    assert ours[-1].title == "What is reciprocal rank fusion?"
    assert {Path(s.cwd) for s in ours} <= {tmp_path, resolved}
    assert not hidden & {s.session_id for s in listed}
    stamps = [s.updated_at or "" for s in listed]
    assert stamps == sorted(stamps, reverse=True)

    with pytest.raises(RequestError) as refused:
        await agent.conn.list_sessions(cursor="not-a-cursor")
    assert "\n" not in str(refused.value)


async def test_resume_continues_a_session_without_replaying_it(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    session = await agent.start(tmp_path)
    await agent.ask(session, "What is reciprocal rank fusion?")
    await asyncio.wait_for(agent.conn.close_session(session_id=session), WAIT_S)
    agent.client.forget()

    agent.client.sessions.add(session)
    await agent.conn.resume_session(cwd=str(tmp_path), session_id=session, mcp_servers=[])
    # nothing replayed: only the slash commands it offers
    assert [u.session_update for u in agent.client.updates] == ["available_commands_update"]
    await agent.ask(session, "And BM25?")

    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        branch = store.path_to_root(leaf.id)
    assert [r.content for r in branch if r.role == "user"] == [
        "What is reciprocal rank fusion?",
        "And BM25?",
    ]

    with pytest.raises(RequestError):
        await agent.conn.resume_session(cwd=str(tmp_path), session_id="nope", mcp_servers=[])


async def test_forks_are_branches_of_one_conversation_each_with_its_own_leaf(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    first = await agent.start(tmp_path)
    await agent.ask(first, "What is reciprocal rank fusion?")
    fork = (await agent.conn.fork_session(session_id=first, cwd=str(tmp_path))).session_id
    agent.client.sessions.add(fork)
    await agent.ask(fork, "And BM25?")
    await agent.ask(first, "And dense retrieval?")
    await agent.ask(fork, "Compare them.")

    with agent.open_store() as store:
        conversation = session_conversation(store, first)
        question = next(
            r
            for r in store.list_messages(conversation.id)
            if r.content == "What is reciprocal rank fusion?"
        )
    # forking at a user message makes a new version of it (its sibling)
    sibling = (
        await agent.conn.fork_session(session_id=fork, cwd=str(tmp_path), messageId=question.id)
    ).session_id
    agent.client.sessions.add(sibling)
    await agent.ask(sibling, "What is RRF, briefly?")

    with agent.open_store() as store:
        users = _user_records(store, conversation.id)
        records = {r.id: r for r in store.list_messages(conversation.id)}
        assert [c.id for c in store.list_conversations() if c.id == conversation.id]
        assert all(r.conversation_id == conversation.id for r in records.values())
    reply = {r.parent_id: r.id for r in records.values() if r.role == "assistant"}
    first_reply = reply[question.id]
    assert users["And BM25?"][0] == first_reply
    assert users["And dense retrieval?"][0] == first_reply
    bm25 = next(k for k, r in records.items() if r.content == "And BM25?")
    assert users["Compare them."][0] == reply[bm25]
    assert users["What is RRF, briefly?"] == (None, 2)

    for meta in ({"messageId": "no-such-message"}, {"messageId": 42}):
        with pytest.raises(RequestError) as refused:
            await agent.conn.fork_session(session_id=first, cwd=str(tmp_path), **meta)
        assert "\n" not in str(refused.value)


async def test_a_fork_cannot_reach_a_message_of_another_conversation(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    mine = await agent.start(tmp_path)
    await agent.ask(mine, "What is reciprocal rank fusion?")
    with agent.open_store() as store:
        other = store.create_conversation("paper-pilot", "Someone else's")
        secret = store.add_message(other.id, "user", "private", None)
    with pytest.raises(RequestError):
        await agent.conn.fork_session(session_id=mine, cwd=str(tmp_path), messageId=secret.id)
    empty = await agent.new_session(tmp_path)
    with pytest.raises(RequestError):
        await agent.conn.fork_session(session_id=empty, cwd=str(tmp_path))
