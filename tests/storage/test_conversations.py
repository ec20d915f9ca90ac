"""Conversations: create, list, rename, meta, delete with everything they contain."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from storage.store import NotFoundError, StorageError
from tests.storage.builders import add_turn


def test_create_and_get_round_trip(store: SqliteConversationStore) -> None:
    created = store.create_conversation("mediator", "Budget talk", {"participants": ["A", "B"]})
    fetched = store.get_conversation(created.id)
    assert fetched == created
    assert fetched.created_at.tzinfo is not None
    assert fetched.meta == {"participants": ["A", "B"]}


def test_list_is_newest_first_and_filters_by_profile(store: SqliteConversationStore) -> None:
    first = store.create_conversation("ide-helper", "first")
    second = store.create_conversation("mediator", "second")
    third = store.create_conversation("ide-helper", "third")
    assert [c.id for c in store.list_conversations()] == [third.id, second.id, first.id]
    store.add_message(first.id, "user", "bump", None)
    assert store.list_conversations()[0].id == first.id
    store.add_message(third.id, "user", "bump", None)
    store.set_active_leaf(first.id, store.list_messages(first.id)[0].id)
    assert store.list_conversations()[0].id == third.id  # only looking does not reorder
    assert [c.id for c in store.list_conversations("ide-helper")] == [third.id, first.id]


def test_rename_and_merge_meta(store: SqliteConversationStore, conversation: Conversation) -> None:
    renamed = store.rename_conversation(conversation.id, "Renamed")
    assert renamed.title == "Renamed"
    assert renamed.updated_at >= conversation.updated_at
    store.update_conversation_meta(conversation.id, project_root="/tmp/x", theme="dark")
    updated = store.update_conversation_meta(conversation.id, theme=None, extra=1)
    assert updated.meta == {"project_root": "/tmp/x", "extra": 1}


def test_delete_conversation_cascades_to_messages_choices_and_search(
    store: SqliteConversationStore, db_path: Path
) -> None:
    doomed = store.create_conversation("ide-helper", "doomed")
    kept = store.create_conversation("ide-helper", "kept")
    add_turn(store, doomed.id, None, "zebra question", "zebra answer")
    add_turn(store, kept.id, None, "other question", "other answer")
    store.delete_conversation(doomed.id)

    with pytest.raises(NotFoundError):
        store.get_conversation(doomed.id)
    assert store.search("zebra") == []
    raw = sqlite3.connect(db_path)
    assert raw.execute(
        "SELECT count(*) FROM messages WHERE conversation_id = ?", (doomed.id,)
    ).fetchone() == (0,)
    assert raw.execute(
        "SELECT count(*) FROM branch_choices WHERE conversation_id = ?", (doomed.id,)
    ).fetchone() == (0,)
    assert len(store.list_messages(kept.id)) == 2
    raw.close()


def test_unknown_ids_raise_not_found_with_a_sentence(store: SqliteConversationStore) -> None:
    for call in (
        lambda: store.get_conversation("nope"),
        lambda: store.rename_conversation("nope", "x"),
        lambda: store.delete_conversation("nope"),
        lambda: store.update_conversation_meta("nope", a=1),
        lambda: store.add_message("nope", "user", "hi", None),
        lambda: store.get_message("nope"),
        lambda: store.update_message("nope", content="x"),
        lambda: store.path_to_root("nope"),
    ):
        with pytest.raises(NotFoundError, match="nope"):
            call()


def test_an_unknown_role_is_refused_with_a_sentence(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    with pytest.raises(StorageError, match="Unknown message role 'wizard'"):
        store.add_message(conversation.id, "wizard", "hi", None)  # type: ignore[arg-type]
    with pytest.raises(StorageError, match="Unknown message status 'done'"):
        store.add_message(conversation.id, "user", "hi", None, {"status": "done"})
    record = store.add_message(conversation.id, "user", "hi", None)
    with pytest.raises(StorageError, match="Unknown message status"):
        store.update_message(record.id, meta={"status": "bogus"})


def test_parent_from_another_conversation_is_refused(store: SqliteConversationStore) -> None:
    one = store.create_conversation("ide-helper")
    two = store.create_conversation("ide-helper")
    root = store.add_message(one.id, "user", "hi", None)
    with pytest.raises(NotFoundError):
        store.add_message(two.id, "assistant", "x", root.id)
