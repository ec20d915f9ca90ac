"""The runtime's one way in, as the chat screen uses it: ``send(exclusive=True)`` and
``exclusively`` hold the conversation's turn lock wherever the message goes, write nothing when
another holder has it, mark what a dead writer left streaming, and keep the message when the
model cannot be built."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncGenerator
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.errors import ConfigError
from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import MessageStored, RunError, RunEvent, RunFinished, TurnStarted
from agents.runtime.turn_lock import conversation_turn
from agents.runtime.user_message import NewMessage
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore

PLACES = st.sampled_from(["at the leaf", "below the first", "beside the first"])


def _message(conversation_id: str, first_id: str, place: str, text: str) -> NewMessage:
    if place == "at the leaf":
        return NewMessage("ide-helper", text, conversation_id, at_active_leaf=True)
    parent = first_id if place == "below the first" else None
    return NewMessage("ide-helper", text, conversation_id, parent_id=parent)


async def _busy_send(data: Path, place: str, text: str) -> tuple[list[RunEvent], int, int]:
    store = SqliteConversationStore(data / "weaver.db")
    try:
        runtime = AgentRuntime(store, None, data_dir=data)
        conversation = store.create_conversation("ide-helper", "busy")
        first = store.add_message(conversation.id, "user", "first", None)
        before = len(store.list_messages(conversation.id))
        model = make_chat_model(ProviderConfig(provider="offline"))
        with conversation_turn(data, conversation.id):  # another front end's turn
            events = [
                event
                async for event in runtime.send(
                    _message(conversation.id, first.id, place, text), model=model, exclusive=True
                )
            ]
        return events, before, len(store.list_messages(conversation.id))
    finally:
        store.close()


@settings(max_examples=12, deadline=None)
@given(place=PLACES, text=st.text(min_size=1, max_size=40))
def test_an_exclusive_send_to_a_busy_conversation_writes_nothing_wherever_it_goes(
    place: str, text: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        events, before, after = asyncio.run(_busy_send(Path(folder), place, text))
    assert len(events) == 1
    assert isinstance(events[0], RunError)
    assert events[0].error.code == "busy"
    assert events[0].record is None
    assert after == before


async def test_a_model_that_cannot_be_built_keeps_the_message_and_writes_no_reply(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    runtime = AgentRuntime(store, None, data_dir=tmp_path)

    async def no_model() -> ChatModelHandle:
        raise ConfigError("Set OPENAI_API_KEY (or api_key) to use openai.")

    events = [
        event
        async for event in runtime.send(
            NewMessage("ide-helper", "anyone there?"), model=no_model, exclusive=True
        )
    ]

    assert [type(event) for event in events] == [MessageStored, RunError]
    stored = events[0]
    assert isinstance(stored, MessageStored)
    failed = events[1]
    assert isinstance(failed, RunError)
    assert failed.record is None
    assert "OPENAI_API_KEY" in failed.error.user_message
    records = store.list_messages(stored.conversation.id)
    assert [(r.role, r.content) for r in records] == [("user", "anyone there?")]


async def test_holding_the_lock_marks_what_a_dead_writer_left_streaming_before_storing(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    runtime = AgentRuntime(store, None, data_dir=tmp_path)
    conversation = store.create_conversation("ide-helper", "left")
    question = store.add_message(conversation.id, "user", "question", None)
    left = store.add_message(conversation.id, "assistant", "half a rep", question.id)
    store.update_message(left.id, status=MessageStatus.STREAMING)  # this process: a leftover
    model = make_chat_model(ProviderConfig(provider="offline"))

    events = [
        event
        async for event in runtime.send(
            NewMessage("ide-helper", "again", conversation.id, parent_id=question.id),
            model=model,
            exclusive=True,
        )
    ]

    assert isinstance(events[0], MessageStored)
    assert isinstance(events[-1], RunFinished)
    marked = store.get_message(left.id)
    assert marked.status is MessageStatus.CANCELLED
    assert marked.meta["interrupted"] is True


async def test_exclusively_refuses_a_busy_turn_before_it_starts(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    runtime = AgentRuntime(store, None, data_dir=tmp_path)
    conversation = store.create_conversation("ide-helper", "again")
    question = store.add_message(conversation.id, "user", "list the files", None)
    model = make_chat_model(ProviderConfig(provider="offline"))
    started: list[bool] = []

    async def turn() -> AsyncGenerator[RunEvent, None]:
        started.append(True)
        async for event in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=question.id, model=model
        ):
            yield event

    with conversation_turn(tmp_path, conversation.id):
        refused = [event async for event in runtime.exclusively(conversation.id, turn())]
    answered = [event async for event in runtime.exclusively(conversation.id, turn())]

    assert len(refused) == 1
    assert isinstance(refused[0], RunError)
    assert refused[0].error.code == "busy"
    assert started == [True]  # only the second turn ran
    assert isinstance(answered[0], TurnStarted)
    assert isinstance(answered[-1], RunFinished)
