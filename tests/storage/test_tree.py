"""The message tree: depth and versions, children, siblings, paths, remembered branches."""

from __future__ import annotations

from pathlib import Path

from storage.models import Conversation, MessageRecord, MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.storage.builders import add_turn


def test_add_computes_depth_and_commits_immediately(
    store: SqliteConversationStore, conversation: Conversation, db_path: Path
) -> None:
    user = store.add_message(conversation.id, "user", "hello", None)
    reply = store.add_message(conversation.id, "assistant", "hi", user.id, {"model": "offline"})
    assert (user.depth, user.version, reply.depth, reply.version) == (0, 1, 1, 1)
    assert reply.meta == {"model": "offline", "status": "complete"}
    # Another connection (another process, say) sees it at once: no pending transaction.
    with SqliteConversationStore(db_path) as other:
        assert other.get_message(reply.id) == reply
        assert other.active_leaf(conversation.id) == reply


def test_a_written_record_equals_a_later_read_of_it(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    meta = {"tool_calls": [{"id": "c1", "name": "t", "args": {"span": (1, 2)}}], "error": None}
    added = store.add_message(conversation.id, "assistant", "", None, meta=meta)
    assert added == store.get_message(added.id)  # the tuple comes back a list in both
    assert added.tool_calls[0]["args"]["span"] == [1, 2]
    updated = store.update_message(added.id, content="x", status=MessageStatus.ERROR)
    assert updated == store.get_message(added.id)


def test_edits_and_regenerations_are_sibling_versions(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user, first = add_turn(store, conversation.id, None, "q", "answer one")
    second = store.add_message(conversation.id, "assistant", "answer two", user.id)
    third = store.add_message(conversation.id, "assistant", "answer three", user.id)
    assert [r.version for r in (first, second, third)] == [1, 2, 3]
    assert [r.id for r in store.siblings(second.id)] == [first.id, second.id, third.id]
    assert [r.id for r in store.children(user.id, conversation.id)] == [
        first.id,
        second.id,
        third.id,
    ]
    edited = store.add_message(conversation.id, "user", "q edited", None)
    assert edited.version == 2
    assert [r.id for r in store.children(None, conversation.id)] == [user.id, edited.id]
    assert store.siblings(edited.id) == store.children(None, conversation.id)


def test_path_to_root_is_root_first(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    system = store.add_message(conversation.id, "system", "be brief", None)
    u1, a1 = add_turn(store, conversation.id, system.id, "one", "1")
    u2, a2 = add_turn(store, conversation.id, a1.id, "two", "2")
    assert [r.id for r in store.path_to_root(a2.id)] == [system.id, u1.id, a1.id, u2.id, a2.id]
    assert [r.depth for r in store.path_to_root(a2.id)] == [0, 1, 2, 3, 4]
    assert store.list_messages(conversation.id)[0] == system


def test_latest_leaf_follows_the_remembered_choice_not_the_newest(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user, old = add_turn(store, conversation.id, None, "q", "old reply")
    _, old_leaf = add_turn(store, conversation.id, old.id, "follow up", "deep on old branch")
    new = store.add_message(conversation.id, "assistant", "regenerated", user.id)
    assert store.latest_leaf(user.id) == new  # the newest branch is where the user went
    store.set_active_leaf(conversation.id, old_leaf.id)  # user flips back to version 1
    assert store.latest_leaf(user.id) == old_leaf
    assert store.active_leaf(conversation.id) == old_leaf
    store.set_active_leaf(conversation.id, new.id)
    assert store.latest_leaf(user.id) == new
    assert store.latest_leaf(old.id) == old_leaf  # below the old reply, its own leaf


def test_without_a_choice_the_newest_child_is_followed(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    root = store.add_message(conversation.id, "user", "root", None)
    store.add_message(conversation.id, "assistant", "a", root.id)
    b = store.add_message(conversation.id, "assistant", "b", root.id)
    assert store.tree_index(conversation.id).leaf_from(root.id, choices={}) == b.id


def test_active_branch_survives_reopening_the_file(db_path: Path) -> None:
    with SqliteConversationStore(db_path) as store:
        conv = store.create_conversation("ide-helper")
        user, first = add_turn(store, conv.id, None, "q", "first")
        _, first_leaf = add_turn(store, conv.id, first.id, "more", "first branch leaf")
        second = store.add_message(conv.id, "assistant", "second", user.id)
        add_turn(store, conv.id, second.id, "more", "second branch leaf")
        edited = store.add_message(conv.id, "user", "edited q", None)
        store.add_message(conv.id, "assistant", "reply to edit", edited.id)
        store.set_active_leaf(conv.id, first_leaf.id)
    with SqliteConversationStore(db_path) as reopened:
        assert reopened.active_leaf(conv.id) == first_leaf
        assert reopened.get_conversation(conv.id).meta["active_leaf"] == first_leaf.id
        # at the fork under the roots and under the user message, the first versions are chosen
        assert reopened.latest_leaf(user.id) == first_leaf
        index = reopened.tree_index(conv.id)
        assert index.leaf_from(None) == first_leaf.id
        assert [r.id for r in index.active_path()] == [
            r.id for r in reopened.path_to_root(first_leaf.id)
        ]


def test_delete_branch_removes_the_subtree_and_moves_the_active_leaf(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user, v1 = add_turn(store, conversation.id, None, "q", "v1")
    v2 = store.add_message(conversation.id, "assistant", "v2", user.id)
    _, v2_leaf = add_turn(store, conversation.id, v2.id, "deeper", "deeper reply")
    v3 = store.add_message(conversation.id, "assistant", "v3", user.id)
    store.set_active_leaf(conversation.id, v1.id)
    store.set_active_leaf(conversation.id, v2_leaf.id)  # user is deep in version 2

    store.delete_branch(v2.id)

    assert [r.id for r in store.siblings(v1.id)] == [v1.id, v3.id]
    assert [r.version for r in store.siblings(v1.id)] == [1, 3]  # versions stay as they were
    assert {r.id for r in store.list_messages(conversation.id)} == {user.id, v1.id, v3.id}
    active = store.active_leaf(conversation.id)
    assert active is not None
    assert active.parent_id == user.id
    assert store.latest_leaf(user.id) == active
    v4 = store.add_message(conversation.id, "assistant", "v4", user.id)
    assert v4.version == 4  # never reuses a version still shown


def test_deleting_another_branch_keeps_the_active_leaf(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user, v1 = add_turn(store, conversation.id, None, "q", "v1")
    v2 = store.add_message(conversation.id, "assistant", "v2", user.id)
    store.set_active_leaf(conversation.id, v1.id)
    store.delete_branch(v2.id)
    assert store.active_leaf(conversation.id) == v1


def test_deleting_every_root_empties_the_conversation(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    first, _ = add_turn(store, conversation.id, None, "q", "a")
    second, _second_reply = add_turn(store, conversation.id, None, "q2", "a2")
    store.delete_branch(second.id)
    assert store.active_leaf(conversation.id) == store.latest_leaf(first.id)
    store.delete_branch(first.id)
    assert store.list_messages(conversation.id) == []
    assert store.active_leaf(conversation.id) is None
    assert "active_leaf" not in store.get_conversation(conversation.id).meta


def test_deep_chain_delete_has_no_recursion_limit(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    parent: MessageRecord | None = None
    first: MessageRecord | None = None
    for i in range(1200):  # deeper than SQLite's 1000 trigger-depth limit
        parent = store.add_message(conversation.id, "user", f"m{i}", parent.id if parent else None)
        first = first or parent
    assert first is not None
    assert parent is not None
    assert len(store.path_to_root(parent.id)) == 1200
    store.delete_branch(first.id)
    assert store.list_messages(conversation.id) == []


def test_update_message_flushes_content_status_and_merges_meta(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    user = store.add_message(conversation.id, "user", "q", None)
    reply = store.add_message(
        conversation.id, "assistant", "", user.id, {"status": "streaming", "model": "m"}
    )
    assert reply.status is MessageStatus.STREAMING
    for text in ("Hel", "Hello", "Hello there"):
        flushed = store.update_message(reply.id, content=text)
    assert flushed.content == "Hello there"
    assert flushed.status is MessageStatus.STREAMING
    done = store.update_message(
        reply.id,
        status=MessageStatus.COMPLETE,
        meta={"usage": {"total_tokens": 3}, "latency_ms": 12, "model": None},
    )
    assert done.status is MessageStatus.COMPLETE
    assert done.meta == {"usage": {"total_tokens": 3}, "latency_ms": 12, "status": "complete"}
    assert store.get_message(reply.id) == done
    errored = store.update_message(reply.id, meta={"status": "error", "error": "Boom."})
    assert errored.status is MessageStatus.ERROR
    assert errored.meta["error"] == "Boom."
