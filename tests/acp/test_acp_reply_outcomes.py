"""A reply that ended marked, over ACP: cut at the output limit stops with ``max_tokens``,
refused or filtered with ``refusal`` (the sentence shown as text), an empty reply (nothing that
shows) or one the provider ended for a reason it did not say is a failed request with its one
sentence; the stored reply is marked either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.models import MessageStatus
from tests.acp.agent_process import AcpAgent, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")


@pytest.mark.parametrize(
    ("reply", "stop", "outcome"),
    [
        (
            Reply(tool_calls=[ToolCall("read_file", '{"path": "no')], finish_reason="length"),
            "max_tokens",
            "truncated",
        ),
        (Reply("The file", finish_reason="length"), "max_tokens", "truncated"),
        (Reply(refusal="I can't help with that."), "refusal", "refused"),
        (Reply("The file says", finish_reason="content_filter"), "refusal", "filtered"),
    ],
)
async def test_a_marked_reply_stops_with_its_stop_reason(
    ide_helper_agent: AcpAgent,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    reply: Reply,
    stop: str,
    outcome: str,
) -> None:
    agent = ide_helper_agent
    fake_openai.script(reply)
    session = await agent.start(tmp_path)

    response = await agent.ask(session, "What does notes.txt say?")

    assert response.stop_reason == stop, agent.stderr_text()
    assert not agent.client.of_kind("tool_call")
    text = agent.client.agent_text()
    with agent.open_store() as store:
        leaf = store.active_leaf(session_conversation(store, session).id)
        assert leaf is not None
        assert leaf.status is MessageStatus.ERROR
        assert leaf.meta["outcome"] == outcome
        assert leaf.meta["error"] in text
        assert leaf.content in text


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (Reply(""), "empty"),
        (Reply("\u200b\u2060"), "empty"),  # nothing that shows
        (Reply("Half of it", finish_reason="error"), "unfinished"),  # no stop reason of ACP's
    ],
)
async def test_an_empty_or_unfinished_reply_is_a_failed_request_with_one_sentence(
    ide_helper_agent: AcpAgent,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    reply: Reply,
    outcome: str,
) -> None:
    from acp import RequestError

    agent = ide_helper_agent
    fake_openai.script(reply)
    session = await agent.start(tmp_path)

    with pytest.raises(RequestError) as failed:
        await agent.ask(session, "Hello?")

    message = str(failed.value)
    assert "\n" not in message.strip()
    with agent.open_store() as store:
        leaf = store.active_leaf(session_conversation(store, session).id)
        assert leaf is not None
        assert leaf.meta["outcome"] == outcome
        assert leaf.status is MessageStatus.ERROR
        assert leaf.meta["error"] in message
