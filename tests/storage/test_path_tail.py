"""``path_tail``: the bottom of a path with version numbers, in one query, on a real file."""

from __future__ import annotations

import pytest

from storage.models import Conversation, Role
from storage.sqlite_store import SqliteConversationStore
from storage.store import NotFoundError
from storage.tree_index import TreeIndex


def _path_with_versions(store: SqliteConversationStore, conversation: Conversation) -> list[str]:
    """Twelve messages; message 5 has three versions (the path takes the second), the root
    has two (the path takes the first)."""
    other_root = None
    parent: str | None = None
    path: list[str] = []
    for n in range(12):
        role: Role = "user" if n % 2 == 0 else "assistant"
        if n == 5:
            store.add_message(conversation.id, role, "v1 of 5", parent)
            record = store.add_message(conversation.id, role, "v2 of 5", parent)
            store.add_message(conversation.id, role, "v3 of 5", parent)
        else:
            record = store.add_message(conversation.id, role, f"message {n}", parent)
        if n == 0:
            other_root = store.add_message(conversation.id, "user", "another start", None)
        parent = record.id
        path.append(record.id)
    assert other_root is not None
    store.set_active_leaf(conversation.id, path[-1])
    return path


def test_the_tail_matches_the_full_tree_index(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    path = _path_with_versions(store, conversation)
    index = TreeIndex.from_rows(store.message_rows(conversation.id))

    tail = store.path_tail(path[-1], 8)

    assert [record.id for record, _, _ in tail] == path[-8:]
    assert [(version, count) for _, version, count in tail] == [
        index.version_of(message_id) for message_id in path[-8:]
    ]
    assert (tail[1][1], tail[1][2]) == (2, 3)  # message 5: the second of three versions
    whole = store.path_tail(path[-1], 100)
    assert [record.id for record, _, _ in whole] == path
    assert (whole[0][1], whole[0][2]) == (1, 2)  # the root and the other start
    assert [record.content for record, _, _ in whole] == [
        record.content for record in store.path_to_root(path[-1])
    ]


def test_an_unknown_leaf_is_not_found(store: SqliteConversationStore) -> None:
    with pytest.raises(NotFoundError):
        store.path_tail("no-such-message", 5)
