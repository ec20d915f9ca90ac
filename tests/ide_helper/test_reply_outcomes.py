"""The ide-helper on a real ``ChatOpenAI`` client over HTTP, against the local server playing a
model whose reply ends cut (``length``), filtered, refused or empty: no tool runs on such a
reply, and it is stored marked with one sentence, never as an empty or cut "complete" one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agents.runtime.events import RunError, RunFinished, ToolStarted
from storage.models import MessageStatus
from tests.ide_helper.test_provider_wire import start, turn
from tests.support.fake_openai import Reply, ToolCall

PATCH = '{"path": "src/app.py", "old_text": "def greet", "new_text": "def gree'


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (Reply(tool_calls=[ToolCall("propose_edit", PATCH)], finish_reason="length"), "truncated"),
        (
            Reply(
                tool_calls=[ToolCall("read_file", {"path": "src/app.py"})], finish_reason="length"
            ),
            "truncated",
        ),
        (Reply("greet is defined in", finish_reason="length"), "truncated"),
        (Reply(refusal="I can't help with that."), "refused"),
        (Reply("greet is defined", finish_reason="content_filter"), "filtered"),
        (Reply(""), "empty"),
    ],
)
async def test_a_marked_reply_runs_no_tool_and_is_stored_marked(
    store: Any,
    tmp_path: Path,
    project: Path,
    fake_openai: Any,
    openai_model: Any,
    reply: Reply,
    outcome: str,
) -> None:
    fake_openai.script(reply)
    user = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, user, openai_model())

    assert isinstance(events[-1], RunError), events[-1]
    assert not [e for e in events if isinstance(e, ToolStarted)]
    assert len(fake_openai.chat_requests) == 1
    record = events[-1].record
    assert record is not None
    stored = store.get_message(record.id)
    assert stored.status is MessageStatus.ERROR
    assert stored.meta["outcome"] == outcome
    assert stored.meta["error"] == events[-1].error.user_message
    assert stored.tool_calls == []
    if reply.content:
        assert stored.content == reply.content  # the partial answer, kept and marked
    if reply.refusal:
        assert stored.content == reply.refusal
    assert store.active_leaf(user.conversation_id).id == stored.id


async def test_an_empty_reply_after_a_tool_that_ran_ends_a_complete_turn(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    # The turn did something (its tool ran on whole arguments): nothing more to say is fine.
    fake_openai.script(
        Reply(tool_calls=[ToolCall("read_file", {"path": "src/app.py"})]), Reply(" \n")
    )
    user = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, user, openai_model())

    assert isinstance(events[-1], RunFinished), events[-1]
    assert [e.name for e in events if isinstance(e, ToolStarted)] == ["read_file"]


async def test_an_empty_reply_after_only_a_broken_call_is_marked(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(Reply(tool_calls=[ToolCall("read_file", "path: src/app.py")]), Reply(""))
    user = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, user, openai_model())

    assert isinstance(events[-1], RunError), events[-1]
    record = events[-1].record
    assert record is not None
    assert store.get_message(record.id).meta["outcome"] == "empty"
