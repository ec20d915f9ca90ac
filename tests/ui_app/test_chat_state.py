"""The chat's tree operations against a real SQLite store, without the UI."""

from __future__ import annotations

import pytest

from agents.runtime.events import BranchDeleted
from agents.runtime.tree_edits import TreeEdits
from agents.runtime.user_message import DEFAULT_TITLE, is_small_talk, title_from
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.ui_app.sent_message import send_stored
from weaver_tui.core.chat_state import ChatState


def _conversation(store: SqliteConversationStore) -> tuple[ChatState, dict[str, str]]:
    """hi -> hello (v1) / hello again (v2) -> more; returns ids by name."""
    state = ChatState(store, "ide-helper")
    user = send_stored(state, "hi there\nsecond line", None)
    cid = state.conversation.id  # type: ignore[union-attr]
    first = store.add_message(cid, "assistant", "hello", user.id)
    second = store.add_message(cid, "assistant", "hello again", user.id)
    more = store.add_message(cid, "user", "more", second.id)
    state.open(cid)
    return state, {"user": user.id, "v1": first.id, "v2": second.id, "more": more.id}


def _delete(state: ChatState, message_id: str) -> str | None:
    """Delete a branch as the chat does: the runtime's tree edit, its event applied."""
    deleted = TreeEdits(state.store).delete(message_id)
    assert isinstance(deleted, BranchDeleted)
    return state.apply_deleted(deleted)


def test_first_message_creates_the_conversation_titled_by_its_first_line(
    store: SqliteConversationStore,
) -> None:
    state = ChatState(store, "mediator")
    assert state.conversation is None
    record = send_stored(state, "  \nPlan the budget\nwith details", None)
    assert state.conversation is not None
    assert state.conversation.title == "Plan the budget"
    assert state.conversation.profile == "mediator"
    assert store.get_message(record.id).content.startswith("  \nPlan")
    assert state.leaf_id == record.id
    assert title_from("") == DEFAULT_TITLE
    assert len(title_from("x" * 200)) == 60


def test_a_greeting_names_the_conversation_only_until_something_is_said(
    store: SqliteConversationStore,
) -> None:
    state = ChatState(store, "ide-helper")
    first = send_stored(state, "hi!", None)
    assert state.conversation is not None
    assert state.conversation.title == "hi!"
    second = send_stored(state, "thanks", first.id)
    assert state.conversation.title == "hi!"
    third = send_stored(state, "Where is the config loaded?", second.id)
    assert state.conversation.title == "Where is the config loaded?"
    send_stored(state, "And what about the cache?", third.id)
    assert store.get_conversation(state.conversation.id).title == "Where is the config loaded?"
    assert is_small_talk("Hello there!")
    assert not is_small_talk("hello, can you read app.py")


def test_flip_version_moves_to_the_sibling_and_its_remembered_branch(
    store: SqliteConversationStore,
) -> None:
    state, ids = _conversation(store)
    assert state.leaf_id == ids["more"]
    assert state.flip_version(ids["v2"], +1) is None
    leaf = state.flip_version(ids["v2"], -1)
    assert leaf == ids["v1"]
    assert [item.content for item in state.path_items()] == ["hi there\nsecond line", "hello"]
    assert store.active_leaf(state.conversation.id).id == ids["v1"]  # type: ignore[union-attr]
    # back to v2 lands on the branch below it again
    assert state.flip_version(ids["v1"], +1) == ids["more"]


def test_items_carry_versions_and_branch_position(store: SqliteConversationStore) -> None:
    state, ids = _conversation(store)
    items = {item.id: item for item in state.path_items()}
    assert (items[ids["v2"]].version, items[ids["v2"]].sibling_count) == (2, 2)
    position = state.branch_position()
    assert (position.index, position.count, position.depth) == (2, 2, 3)
    assert str(position) == "branch 2/2 · depth 3"


def test_delete_branch_moves_the_active_leaf_to_a_survivor(
    store: SqliteConversationStore,
) -> None:
    state, ids = _conversation(store)
    assert _delete(state, ids["v2"]) == ids["v1"]
    assert ids["more"] not in state.index
    assert [r.id for r in store.list_messages(state.conversation.id)] == [  # type: ignore[union-attr]
        ids["user"],
        ids["v1"],
    ]


def test_reopening_returns_to_the_checked_out_branch(store: SqliteConversationStore) -> None:
    state, ids = _conversation(store)
    state.checkout(ids["v1"])
    again = ChatState(store, "ide-helper")
    assert again.open_latest()
    assert again.leaf_id == ids["v1"]
    assert again.nearest_user(ids["v1"]) == ids["user"]


def test_rows_are_reused_until_their_record_or_versions_change(
    store: SqliteConversationStore,
) -> None:
    state, ids = _conversation(store)
    first = {item.id: item for item in state.path_items()}
    again = {item.id: item for item in state.path_items()}
    assert all(again[key] is first[key] for key in first)
    # a new sibling of the user message changes nothing above; a new version of a reply
    # changes that reply's row (its version count), and a refreshed record rebuilds its row
    cid = state.conversation.id  # type: ignore[union-attr]
    third = store.add_message(cid, "assistant", "hello a third time", ids["user"])
    state.refresh(third.id)
    state.checkout(ids["v2"])
    rows = {item.id: item for item in state.path_items()}
    assert rows[ids["user"]] is first[ids["user"]]
    assert rows[ids["v2"]] is not first[ids["v2"]]
    assert (rows[ids["v2"]].version, rows[ids["v2"]].sibling_count) == (2, 3)
    store.update_message(ids["more"], content="more, edited")
    state.refresh(ids["more"])
    assert state.item(ids["more"]).content == "more, edited"


def test_apply_takes_a_written_record_as_given_without_reading_the_store(
    store: SqliteConversationStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, ids = _conversation(store)
    before = state.item(ids["v2"])
    cid = state.conversation.id  # type: ignore[union-attr]
    added = store.add_message(
        cid, "assistant", "streaming", ids["more"], meta={"status": "streaming"}
    )
    closed = store.update_message(added.id, content="done", status=MessageStatus.COMPLETE)

    def no_reads(*args: object) -> None:
        raise AssertionError("apply read the store")

    monkeypatch.setattr(store, "get_message", no_reads)
    assert state.apply(added) is added
    assert state.index.children(ids["more"]) == [added.id]
    assert state.apply(closed) is closed
    assert state.index.get(added.id) is closed
    assert state.item(added.id).content == "done"
    assert state.item(ids["v2"]) is before  # a row the record did not touch is kept


def test_branch_position_follows_added_and_deleted_branches(
    store: SqliteConversationStore,
) -> None:
    state, ids = _conversation(store)
    assert (state.branch_position().index, state.branch_position().count) == (2, 2)
    state.checkout(ids["v1"])
    assert (state.branch_position().index, state.branch_position().count) == (1, 2)
    cid = state.conversation.id  # type: ignore[union-attr]
    v3 = state.refresh(store.add_message(cid, "assistant", "v3", ids["user"]).id).id
    assert state.branch_position().count == 3
    _delete(state, ids["v2"])
    position = state.branch_position()
    assert position.count == 2
    assert state.leaf_id is not None
    assert position.index == [ids["v1"], v3].index(state.leaf_id) + 1


def test_a_reply_its_process_left_unfinished_reads_interrupted(
    store: SqliteConversationStore,
) -> None:
    state, ids = _conversation(store)
    store.update_message(ids["v2"], status=MessageStatus.CANCELLED, meta={"interrupted": True})
    state.open(state.conversation.id)  # type: ignore[union-attr]
    items = {item.id: item for item in state.path_items()}
    assert items[ids["v2"]].status == "cancelled"
    assert items[ids["v2"]].badge.endswith(" · interrupted")
    assert "interrupted" not in items[ids["user"]].badge
