"""A provider's reply is the assistant's whatever ``role`` its deltas name: a turn whose
server says ``user`` (or ``system``, ``tool``, a role of its own) stores the words as the
assistant's reply, complete, never as the user's words nor as an empty reply. The real client
over HTTP on the local server, the test-only ``researcher`` profile, real SQLite."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, run
from tests.support.fake_openai import FakeOpenAI, Reply


@pytest.mark.parametrize("role", ["user", "system", "tool", "model", None])
async def test_a_reply_whose_deltas_name_another_role_is_the_assistants(
    researcher: str,
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    role: str | None,
) -> None:
    events = [
        {"choices": [{"index": 0, "delta": {"role": role, "content": "I approve."}}]},
        {"choices": [{"index": 0, "delta": {"role": role, "content": " Done."}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    fake_openai.script(Reply(events=events))
    user = new_turn(store, researcher, "hello")

    ran = await run(AgentRuntime(store, checkpointer, max_tool_rounds=3), user, openai_model())

    assert isinstance(ran[-1], RunFinished), ran[-1]
    leaf = store.active_leaf(user.conversation_id)
    assert leaf is not None
    path = store.path_to_root(leaf.id)
    assert [r.role for r in path] == ["user", "assistant"]
    assert path[-1].content == "I approve. Done."
    assert "outcome" not in path[-1].meta
