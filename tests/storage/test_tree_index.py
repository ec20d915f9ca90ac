"""The in-memory tree index the app and the export walk: same answers as the store, without
queries."""

from __future__ import annotations

from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore
from storage.tree_index import ROOT_KEY, TreeIndex
from tests.storage.builders import add_turn


def _branched(store: SqliteConversationStore, conversation_id: str) -> dict[str, str]:
    user, v1 = add_turn(store, conversation_id, None, "q", "v1")
    _, v1_leaf = add_turn(store, conversation_id, v1.id, "q2", "v1 leaf")
    v2 = store.add_message(conversation_id, "assistant", "v2", user.id)
    edit = store.add_message(conversation_id, "user", "q edited", None)
    store.set_active_leaf(conversation_id, v1_leaf.id)
    return {"user": user.id, "v1": v1.id, "v1_leaf": v1_leaf.id, "v2": v2.id, "edit": edit.id}


def test_index_answers_like_the_store(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    ids = _branched(store, conversation.id)
    index = store.tree_index(conversation.id)
    assert len(index) == len(store.list_messages(conversation.id)) == 6
    assert index.active_leaf_id == ids["v1_leaf"]
    assert index.choices[ROOT_KEY] == ids["user"]
    assert index.choices[ids["user"]] == ids["v1"]
    for record in store.list_messages(conversation.id):
        assert index.records(index.path_to(record.id)) == store.path_to_root(record.id)
        assert index.records(index.siblings(record.id)) == store.siblings(record.id)
        assert index.records(index.children(record.id)) == store.children(
            record.id, conversation.id
        )
        assert index.leaf_from(record.id) == store.latest_leaf(record.id).id
    assert index.records(index.children(None)) == store.children(None, conversation.id)
    assert index.parent(ids["v2"]) == ids["user"]


def test_leaf_from_with_other_choices_and_choose(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    ids = _branched(store, conversation.id)
    index = store.tree_index(conversation.id)
    assert index.leaf_from(None) == ids["v1_leaf"]
    assert index.leaf_from(None, choices={}) == ids["edit"]
    assert index.leaf_from(ids["user"], choices={ids["user"]: ids["v2"]}) == ids["v2"]
    index.choose(ids["v2"])
    assert index.active_leaf_id == ids["v2"]
    assert index.leaf_from(None) == ids["v2"]
    assert [r.id for r in index.active_path()] == [ids["user"], ids["v2"]]


def test_add_keeps_children_in_version_order(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    ids = _branched(store, conversation.id)
    index = store.tree_index(conversation.id)
    v3 = store.add_message(conversation.id, "assistant", "v3", ids["user"])
    index.add(v3)
    assert [r.version for r in index.records(index.siblings(v3.id))] == [1, 2, 3]
    assert v3.id in index
    assert index.get(v3.id) == v3


def test_empty_index() -> None:
    index = TreeIndex([])
    assert index.leaf_from(None) is None
    assert index.active_path() == []
    assert len(index) == 0


def test_lazy_rows_and_eager_records_build_the_same_index(
    store: SqliteConversationStore, conversation: Conversation
) -> None:
    ids = _branched(store, conversation.id)
    lazy = store.tree_index(conversation.id)
    eager = TreeIndex(store.list_messages(conversation.id), lazy.choices, lazy.active_leaf_id)
    assert all(lazy.children(i) == eager.children(i) for i in [None, *ids.values()])
    assert set(lazy) == set(eager)
    assert len(lazy) == len(eager)
    assert [r.id for r in lazy.active_path()] == [r.id for r in eager.active_path()]
    assert all(lazy.get(i) == eager.get(i) for i in ids.values())
    assert "missing" not in lazy
    lazy.remove_branch(ids["edit"])
    assert ids["edit"] not in lazy
