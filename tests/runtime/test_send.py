"""``AgentRuntime.send``: the runtime is the one writer of a turn, the user's message included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import MessageStored, RunError, RunFinished, TurnStarted
from agents.runtime.user_message import NewMessage
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply


async def collect(runtime: AgentRuntime, message: NewMessage, model: object) -> list[object]:
    return [event async for event in runtime.send(message, model=model)]  # type: ignore[arg-type]


async def test_a_new_conversation_is_created_titled_and_its_message_stored_first(
    store: SqliteConversationStore, runtime: AgentRuntime
) -> None:
    model = make_chat_model(ProviderConfig(provider="offline"))
    text = "Where is the config read?\nAnd who writes it?"

    events = await collect(runtime, NewMessage(profile="ide-helper", text=text), model)

    stored = events[0]
    assert isinstance(stored, MessageStored)
    assert isinstance(events[1], TurnStarted)
    assert isinstance(events[-1], RunFinished)
    assert stored.conversation.title == "Where is the config read?"
    assert stored.record.role == "user"
    assert stored.record.content == text
    assert store.get_message(stored.record.id).content == text
    assert events[1].user_message_id == stored.record.id


async def test_the_message_is_kept_when_the_provider_fails(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(Reply(status=500, error_message="upstream exploded"))
    conversation = store.create_conversation("ide-helper", "kept")

    events = await collect(
        runtime,
        NewMessage(
            profile="ide-helper",
            text="hello there, read app.py",
            conversation_id=conversation.id,
            at_active_leaf=True,
        ),
        openai_model(),
    )

    stored = next(e for e in events if isinstance(e, MessageStored))
    assert any(isinstance(e, RunError) for e in events)
    assert store.get_message(stored.record.id).content == "hello there, read app.py"


async def test_small_talk_titles_give_way_to_the_first_real_message(
    store: SqliteConversationStore, runtime: AgentRuntime
) -> None:
    model = make_chat_model(ProviderConfig(provider="offline"))
    first = await collect(runtime, NewMessage(profile="ide-helper", text="hi"), model)
    conversation = next(e for e in first if isinstance(e, MessageStored)).conversation
    assert conversation.title == "hi"

    second = await collect(
        runtime,
        NewMessage(
            profile="ide-helper",
            text="list the python files",
            conversation_id=conversation.id,
            at_active_leaf=True,
        ),
        model,
    )

    renamed = next(e for e in second if isinstance(e, MessageStored)).conversation
    assert renamed.title == "list the python files"


async def test_a_second_turn_at_the_same_leaf_is_refused_and_writes_nothing(
    store: SqliteConversationStore,
    checkpointer: AsyncSqliteSaver,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime = AgentRuntime(store, checkpointer, data_dir=tmp_path)
    # Held before its first word until the second turn has been refused: the first is running.
    fake_openai.script(Reply(content="a held answer", holds=(0,)))
    conversation = store.create_conversation("ide-helper", "busy")
    model = openai_model()

    def at_leaf(text: str) -> NewMessage:
        return NewMessage(
            profile="ide-helper", text=text, conversation_id=conversation.id, at_active_leaf=True
        )

    first = runtime.send(at_leaf("first question"), model=model)
    started = [await anext(first), await anext(first)]  # stored, then the turn under the lock
    assert isinstance(started[0], MessageStored)

    refused = await collect(runtime, at_leaf("second question"), model)

    assert len(refused) == 1
    assert isinstance(refused[0], RunError)
    assert refused[0].error.code == "busy"
    fake_openai.release()
    rest = [event async for event in first]
    assert isinstance(rest[-1], RunFinished)
    contents = [m.content for m in store.path_to_root(rest[-1].leaf_id) if m.role == "user"]
    assert contents == ["first question"]
