"""A prompt over ACP: streamed as message chunks, stored as an ordinary conversation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.models import MessageStatus
from tests.acp.agent_process import KEY, AcpAgent, session_conversation
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_a_prompt_on_the_offline_model_streams_and_becomes_a_conversation(
    offline_agent: AcpAgent, tmp_path: Path
) -> None:
    agent = offline_agent
    session = await agent.start(tmp_path)
    response = await agent.ask(session, "How does ReWOO save tokens?")

    assert response.stop_reason == "end_turn", agent.stderr_text()
    streamed = agent.client.agent_text()
    assert streamed.strip()
    plans = agent.client.of_kind("plan")
    assert plans, "paper-pilot's stages arrive as plan entries"
    assert all(entry.status == "completed" for entry in plans[-1].entries)
    assert {"router"} <= {entry.content for entry in plans[-1].entries}
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        assert conversation.profile == "paper-pilot"
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        branch = store.path_to_root(leaf.id)
        assert branch[0].role == "user"
        assert branch[0].content == "How does ReWOO save tokens?"
        assert branch[-1].role == "assistant"
        assert branch[-1].status == MessageStatus.COMPLETE
        assert streamed.strip() in "\n".join(r.content for r in branch[1:])


async def test_a_prompt_on_an_openai_compatible_server_with_a_tool_call(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    agent = ide_helper_agent
    (tmp_path / "notes.txt").write_text("The answer is 42.\n", encoding="utf-8")
    fake_openai.script(
        Reply(content="Reading.", tool_calls=[ToolCall("read_file", {"path": "notes.txt"})]),
        Reply.from_tokens(["The ", "file ", "says ", "42."]),
        Reply("Still 42."),
    )
    session = await agent.start(tmp_path)
    first = await agent.ask(session, "What does notes.txt say?")
    second = await agent.ask(session, "Sure?")

    assert (first.stop_reason, second.stop_reason) == ("end_turn", "end_turn")
    assert agent.client.agent_text() == "Reading.The file says 42.Still 42."
    [started] = agent.client.of_kind("tool_call")
    assert started.status == "in_progress"
    assert started.raw_input == {"path": "notes.txt"}
    assert "read_file" in started.title
    [finished] = agent.client.of_kind("tool_call_update")
    assert finished.tool_call_id == started.tool_call_id
    assert finished.status == "completed"
    assert "The answer is 42." in finished.content[0].content.text
    sent = [m["content"] for m in fake_openai.last_body["messages"] if m["role"] == "user"]
    assert sent == ["What does notes.txt say?", "Sure?"]
    with agent.open_store() as store:
        conversation = session_conversation(store, session)
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        branch = store.path_to_root(leaf.id)
        assert [r.role for r in branch] == [
            "user",
            "assistant",
            "tool",
            "assistant",
            "user",
            "assistant",
        ]
        assert conversation.meta["project_root"] == str(await asyncio.to_thread(tmp_path.resolve))
    log = (agent.data_dir / "weaver.log").read_text(encoding="utf-8").splitlines()
    assert any("acp session opened" in line and session in line for line in log)
    assert not any(KEY in line for line in log)


async def test_a_provider_failure_is_one_sentence_not_a_traceback(
    ide_helper_agent: AcpAgent, tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    from acp import RequestError

    agent = ide_helper_agent
    fake_openai.script(Reply.unauthorized())
    session = await agent.start(tmp_path)
    try:
        await agent.ask(session, "Hello?")
    except RequestError as error:
        failure = error
    else:
        raise AssertionError("the prompt should have failed")

    message = str(failure)
    assert "Traceback" not in message
    assert "\n" not in message.strip()
    assert "key" in message.lower()
    assert "Traceback" not in agent.stderr_text()
