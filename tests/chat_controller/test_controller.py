"""The chat controller without a Pilot: every operation is a runtime call whose events the
controller applies, so after any sequence of sends, forks, edits, regenerations and deletions
the chat's state holds exactly what the store holds, on the store's active branch, and nothing
of it was read back."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.providers import ChatModelHandle
from agents.runtime.events import (
    BranchDeleted,
    MessageStored,
    ReplyEdited,
    RunError,
    RunFinished,
    TurnStarted,
)
from agents.runtime.turn_lock import conversation_turn
from storage.sqlite_store import SqliteConversationStore
from storage.tree_index import ForkError
from tests.chat_controller.drive import controller, drain, offline
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply
from weaver_tui.core.chat_controller import ChatController
from weaver_tui.core.chat_state import ChatState

REPO = Path(__file__).resolve().parents[2]
WORDS = st.sampled_from(["hello", "what can you do?", "thanks", "and then?"])
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("send"), st.integers(0, 50), WORDS),
        st.tuples(st.just("fork"), st.integers(0, 50), WORDS),
        st.tuples(st.just("edit"), st.integers(0, 50), WORDS),
        st.tuples(st.just("regenerate"), st.integers(0, 50), WORDS),
        st.tuples(st.just("delete"), st.integers(0, 50), WORDS),
    ),
    min_size=1,
    max_size=5,
)


def all_ids(chat: ChatController) -> list[str]:
    index = chat.state.index
    return [i for root in index.children(None) for i in index.subtree(root)]


def assert_state_is_the_store(chat: ChatController, store: SqliteConversationStore) -> None:
    """The state's index holds every record of the conversation exactly as stored, and its
    active leaf is the store's."""
    state = chat.state
    if state.conversation is None:
        return
    stored = store.list_messages(state.conversation.id)
    assert {r.id: r for r in stored} == {i: state.index.get(i) for i in all_ids(chat)}
    leaf = store.active_leaf(state.conversation.id)
    assert state.leaf_id == (leaf.id if leaf is not None else None)


async def _play(data: Path, operations: list[tuple[str, int, str]]) -> None:
    store = SqliteConversationStore(data / "weaver.db")
    chat = controller(store, data, offline())
    try:
        for name, pick, text in operations:
            ids = all_ids(chat)
            target = ids[pick % len(ids)] if ids else None
            if name == "send" or target is None:
                await drain(chat.send(text))
            elif name == "fork":
                try:
                    await drain(chat.fork(target, text))
                except ForkError:
                    continue
            elif name == "edit":
                await drain(chat.edit(target, text))
            elif name == "regenerate":
                await drain(chat.regenerate(target))
            else:
                assert isinstance(chat.delete(target), BranchDeleted)
            assert_state_is_the_store(chat, store)
    finally:
        await chat.aclose()
        store.close()


@settings(max_examples=10, deadline=None)
@given(operations=OPERATIONS)
def test_after_any_operations_the_state_is_what_the_store_holds(
    operations: list[tuple[str, int, str]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_play(Path(folder), operations))


async def test_a_sent_message_is_applied_before_its_turn_and_the_turn_as_it_streams(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    chat = controller(store, tmp_path, offline())
    seen: list[tuple[type, str | None]] = []
    async for event in chat.send("what can you do?"):
        seen.append((type(event), chat.state.leaf_id))
        if isinstance(event, MessageStored):
            assert chat.state.conversation == event.conversation
            assert chat.state.index.get(event.record.id) == event.record
        if isinstance(event, TurnStarted):
            assert chat.state.leaf_id == event.reply.id
    await chat.aclose()
    assert seen[0][0] is MessageStored
    assert seen[-1][0] is RunFinished
    assert_state_is_the_store(chat, store)


async def test_through_chat_openai_a_reply_is_regenerated_and_continued_as_versions(
    store: SqliteConversationStore,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(deltas=["first ", "answer"]),
        Reply(deltas=["second ", "answer"]),
        Reply(deltas=[" and more"]),
    )
    handle = openai_model()

    async def model() -> ChatModelHandle:
        return handle

    chat = controller(store, tmp_path, model)
    first = await drain(chat.send("tell me"))
    reply_id = first[-1].leaf_id if isinstance(first[-1], RunFinished) else None
    assert reply_id is not None
    again = await drain(chat.regenerate(reply_id))
    assert isinstance(again[-1], RunFinished)
    second_id = again[-1].leaf_id
    more = await drain(chat.continue_reply(second_id))
    assert isinstance(more[-1], RunFinished)
    await chat.aclose()

    state = chat.state
    versions = state.index.siblings(reply_id)
    assert [state.index.get(i).content for i in versions] == [
        "first answer",
        "second answer",
        "second answer and more",
    ]
    assert state.leaf_id == versions[-1]
    assert_state_is_the_store(chat, store)


async def test_an_edited_reply_is_a_new_leaf_version_and_no_turn_runs(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    chat = controller(store, tmp_path, offline())
    await drain(chat.send("hello"))
    reply = chat.state.leaf_id
    assert reply is not None
    events = await drain(chat.edit(reply, "my own answer"))
    await chat.aclose()
    assert len(events) == 1
    edited = events[0]
    assert isinstance(edited, ReplyEdited)
    assert chat.state.leaf_id == edited.record.id
    assert chat.state.index.siblings(reply) == [reply, edited.record.id]
    assert_state_is_the_store(chat, store)


async def test_a_busy_conversation_changes_nothing_in_the_state_or_the_store(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    chat = controller(store, tmp_path, offline())
    await drain(chat.send("hello"))
    state = chat.state
    assert state.conversation is not None
    leaf, records = state.leaf_id, len(store.list_messages(state.conversation.id))
    with conversation_turn(tmp_path, state.conversation.id):  # another window answers
        sent = await drain(chat.send("are you there?"))
        assert leaf is not None
        again = await drain(chat.regenerate(leaf))
    await chat.aclose()
    for events in (sent, again):
        assert len(events) == 1
        assert isinstance(events[0], RunError)
        assert events[0].error.code == "busy"
    assert len(store.list_messages(state.conversation.id)) == records
    assert_state_is_the_store(chat, store)
    assert state.leaf_id == leaf


def test_the_controller_imports_no_textual() -> None:
    code = (
        "import json, sys\n"
        "import weaver_tui.core.chat_controller\n"
        "print(json.dumps('textual' in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) is False


@pytest.fixture(autouse=True)
def _no_reads_back(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The controller reads nothing back: ``get_message`` from ``weaver_tui`` fails the test."""
    original = SqliteConversationStore.get_message

    def guarded(self: SqliteConversationStore, message_id: str) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        assert not caller.startswith("weaver_tui"), f"{caller} read {message_id} back"
        return original(self, message_id)

    monkeypatch.setattr(SqliteConversationStore, "get_message", guarded)


async def test_a_summary_and_a_pin_are_applied_as_the_runtime_wrote_them(
    store: SqliteConversationStore, tmp_path: Path
) -> None:
    conversation = store.create_conversation("ide-helper", "long")
    parent: str | None = None
    for n in range(8):
        parent = store.add_message(conversation.id, "user", f"ask {n}\nmore", parent).id
        parent = store.add_message(conversation.id, "assistant", f"say {n}\nmore", parent).id
    chat = controller(store, tmp_path, offline())
    state = chat.state
    assert isinstance(state, ChatState)
    state.open(conversation.id)

    short = await chat.summarise(chat.state.index.children(None)[0])
    summary = await chat.summarise()
    first = chat.state.index.children(None)[0]
    pinned = chat.mark_context(first, "pinned")
    await chat.aclose()

    assert short is None  # a branch of one message needs no summary
    assert summary is not None
    assert not isinstance(summary, RunError)
    assert summary.record.meta["summary_covers"] > 0
    assert chat.state.index.get(summary.record.id) == summary.record
    assert not isinstance(pinned, RunError)
    assert chat.state.index.get(first).meta["context"] == "pinned"
    assert_state_is_the_store(chat, store)
