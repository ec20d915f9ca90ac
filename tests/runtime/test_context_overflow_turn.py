"""A turn whose request overflows the model's context window is cut, asked once more and
told in the status pane; the next turn is cut before it is sent; a turn that cannot fit ends
with one sentence naming "Summarise older turns" (real ``ChatOpenAI`` over HTTP)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import agents.providers.context_overflow as context_overflow
from agents.providers import ChatModelHandle
from agents.providers.context_overflow import SUMMARISE_COMMAND, ContextTooLongError
from agents.providers.retried_call import PROVIDER_STATUS_NODE
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import NodeStatus, RunError
from storage.models import MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = pytest.mark.usefixtures("researcher")


@pytest.fixture(autouse=True)
def _nothing_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows learned in a test stay in it (the memory is process-wide)."""
    monkeypatch.setattr(context_overflow, "_LEARNED", {})


def overflow(window: int, tokens: int) -> Reply:
    return Reply.http_error(
        400,
        f"This model's maximum context length is {window} tokens. However, you requested "
        f"{tokens} tokens ({tokens} in the messages, 0 in the completion). Please reduce the "
        "length of the messages or completion.",
    )


def long_history(store: SqliteConversationStore, turns: int) -> MessageRecord:
    """A conversation of ``turns`` long exchanges; its last record."""
    conversation = store.create_conversation("researcher", "long")
    parent: str | None = None
    record: MessageRecord | None = None
    for n in range(turns):
        record = store.add_message(conversation.id, "user", f"q{n} " + "x" * 2000, parent)
        record = store.add_message(conversation.id, "assistant", f"a{n} " + "y" * 2000, record.id)
        parent = record.id
    assert record is not None
    return record


def user_texts(body: dict[str, Any]) -> list[str]:
    return [str(m["content"])[:3] for m in body["messages"] if m["role"] == "user"]


async def test_an_overflowing_turn_is_cut_asked_again_said_and_learned(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    last = long_history(store, 8)
    fake_openai.script(overflow(4096, 9000), "Answered within the window.", "Next answer.")
    handle = openai_model()
    user = new_turn(store, "researcher", "What was q0 about?", last.id)

    events = await run(runtime, user, handle)

    finished = finish_of(events)
    assert finished.status == "complete"
    assert store.get_message(finished.leaf_id).content == "Answered within the window."
    lines = [
        (e.text, e.state) for e in of_type(events, NodeStatus) if e.node == PROVIDER_STATUS_NODE
    ]
    assert lines[0][1] == "running"
    assert "4,096 tokens" in lines[0][0]
    assert lines[-1][1] == "done"
    first, cut = fake_openai.chat_bodies
    assert len(user_texts(cut)) < len(user_texts(first))
    assert user_texts(cut)[-1] == "Wha"  # the question is kept

    follow_up = new_turn(store, "researcher", "And q1?", finished.leaf_id)
    events = await run(runtime, follow_up, handle)

    assert finish_of(events).status == "complete"
    assert len(fake_openai.chat_bodies) == 3  # cut before it was sent: no second overflow
    assert user_texts(fake_openai.chat_bodies[2])[-1] == "And"


async def test_a_turn_that_cannot_fit_names_summarise_older_turns(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(overflow(512, 6000), "never asked")
    user = new_turn(store, "researcher", "z " * 6000)

    events = await run(runtime, user, openai_model())

    failed = events[-1]
    assert isinstance(failed, RunError)
    assert isinstance(failed.error, ContextTooLongError)
    assert SUMMARISE_COMMAND in failed.error.user_message
    assert failed.record is not None
    assert failed.record.status is MessageStatus.ERROR
    assert len(fake_openai.chat_requests) == 1
