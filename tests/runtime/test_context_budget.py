"""A long branch is cut to the model's context window in tokens before it is sent: the oldest
messages go, the system prompt, the pinned messages and the question stay."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.context_budget import request_budget
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.usefixtures("researcher")

WINDOW = 8_000


def long_branch(store: SqliteConversationStore, turns: int) -> str:
    """A branch of ``turns`` question/answer pairs of ~2,000 characters each; returns its leaf,
    with the first answer pinned."""
    leaf = None
    for n in range(turns):
        user = new_turn(store, "researcher", f"QUESTION-{n} " + "words " * 330, parent_id=leaf)
        answer = store.add_message(
            user.conversation_id, "assistant", f"ANSWER-{n} " + "reply " * 330, user.id
        )
        leaf = answer.id
        if n == 0:
            store.update_message(answer.id, meta={"context": "pinned"})
    assert leaf is not None
    return leaf


async def test_a_long_history_is_trimmed_under_the_window_keeping_the_pinned(
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime = AgentRuntime(store, checkpointer, context_messages=200)
    leaf = long_branch(store, 30)
    user = new_turn(store, "researcher", "LAST-QUESTION: sum it up", parent_id=leaf)
    fake_openai.script("Summed up.")

    events = await run(runtime, user, replace(openai_model(), context_window=WINDOW))

    assert of_type(events, RunFinished)
    sent = fake_openai.last_body["messages"]
    chars = sum(len(m.get("content") or "") for m in sent)
    assert chars / 4 + 3 * len(sent) <= request_budget(WINDOW)
    texts = [m.get("content") or "" for m in sent]
    assert sent[0]["role"] == "system"
    assert any(t.startswith("ANSWER-0 ") for t in texts)  # pinned, though the oldest
    assert not any(t.startswith("QUESTION-0 ") for t in texts)
    assert not any(t.startswith("QUESTION-5 ") for t in texts)
    assert texts[-1] == "LAST-QUESTION: sum it up"
    assert any(t.startswith("ANSWER-29 ") for t in texts)  # the latest turns stay
    humans = [m for m in sent if m["role"] == "user"]
    assert sent.index(humans[0]) <= 2  # the kept part starts on a question


async def test_without_a_known_window_every_chosen_record_is_sent(
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime = AgentRuntime(store, checkpointer, context_messages=200)
    leaf = long_branch(store, 30)
    user = new_turn(store, "researcher", "LAST-QUESTION", parent_id=leaf)
    fake_openai.script("ok")

    await run(runtime, user, openai_model())

    assert len(fake_openai.last_body["messages"]) == 1 + 60 + 1
