"""A reply being written when the store's disk fills up: one sentence, the reply marked failed
with the text written so far, the user's message kept, the file whole."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunFinished
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.full_disk import fill_disk, free_disk, integrity

pytestmark = pytest.mark.usefixtures("researcher")

START = ["The answer ", "begins here. "]
BIG_PIECE = " ".join(f"term{i}" for i in range(40_000))
"""A piece of reply far bigger than the room left, so writing it fails where a small mark fits."""


@pytest.fixture
def flushing_each_piece(runtime: AgentRuntime) -> AgentRuntime:
    runtime.flush_interval = 0.0
    return runtime


async def test_a_full_disk_mid_reply_ends_the_turn_with_one_sentence_and_marks_the_reply(
    store: SqliteConversationStore,
    flushing_each_piece: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply(deltas=[*START, BIG_PIECE, " the end."], token_delay=0.01))
    user = new_turn(store, "researcher", "write a lot")
    fill_disk(store, spare_pages=10)

    events = await run(flushing_each_piece, user, openai_model())

    last = events[-1]
    assert isinstance(last, RunError), events[-3:]
    assert not of_type(events, RunFinished)
    assert last.error.code == "storage"
    assert "full" in last.error.user_message
    assert "\n" not in last.error.user_message
    (reply,) = [m for m in store.list_messages(user.conversation_id) if m.role == "assistant"]
    assert reply.status is MessageStatus.ERROR
    assert reply.meta["error"] == last.error.user_message
    assert reply.content == "".join(START)  # what was written before the disk filled, whole
    assert last.record is not None
    assert last.record.id == reply.id
    assert store.get_message(user.id).content == "write a lot"
    assert integrity(store) == "ok"


async def test_a_disk_too_full_to_mark_the_reply_leaves_it_for_the_next_open_to_mark(
    store: SqliteConversationStore,
    flushing_each_piece: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    words = [f"word{i} " for i in range(20_000)]
    fake_openai.script(Reply(deltas=words, token_delay=0.0))
    user = new_turn(store, "researcher", "write a lot")
    fill_disk(store, spare_pages=2)

    events = await run(flushing_each_piece, user, openai_model())

    last = events[-1]
    assert isinstance(last, RunError), events[-3:]
    assert last.error.code == "storage"
    assert last.record is not None
    assert last.record.status is MessageStatus.ERROR
    (reply,) = [m for m in store.list_messages(user.conversation_id) if m.role == "assistant"]
    assert "".join(words).startswith(reply.content)
    assert reply.status is MessageStatus.STREAMING  # as a crash leaves it, the file whole
    free_disk(store)
    assert store.mark_interrupted_replies(user.conversation_id) == [reply.id]
    assert store.get_message(reply.id).status is not MessageStatus.STREAMING
    assert integrity(store) == "ok"
