"""The contract of :class:`storage.store.ConversationStore`, part two: paths, the context
window, remembered branches, branch deletion, search, export and import, prompt history.

Runs once per backend in ``STORE_FACTORIES`` (``tests/storage/conftest.py``), through the
protocol only; part one is :mod:`tests.storage.test_interface`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from storage.models import MessageRecord
from storage.store import ConversationStore, StorageError
from tests.storage.builders import add_tool_round, add_turn, assert_sentence


def _branched(store: ConversationStore) -> tuple[str, dict[str, MessageRecord]]:
    """q -> v1 -> q2 -> v1_leaf, q -> v2, and an edited root; the user is on v1_leaf."""
    conversation = store.create_conversation("ide-helper", "Branched")
    user, v1 = add_turn(store, conversation.id, None, "q", "v1")
    q2, v1_leaf = add_turn(store, conversation.id, v1.id, "q2", "v1 leaf")
    v2 = store.add_message(conversation.id, "assistant", "v2", user.id)
    edit = store.add_message(conversation.id, "user", "q edited", None)
    store.set_active_leaf(conversation.id, v1_leaf.id)
    records = {"user": user, "v1": v1, "q2": q2, "v1_leaf": v1_leaf, "v2": v2, "edit": edit}
    return conversation.id, records


# -- paths and the context window --------------------------------------------------------------


def test_path_to_root_runs_root_first_down_to_the_message(backend: ConversationStore) -> None:
    _, r = _branched(backend)
    path = backend.path_to_root(r["v1_leaf"].id)
    assert path == [r["user"], r["v1"], r["q2"], r["v1_leaf"]]
    assert [record.depth for record in path] == [0, 1, 2, 3]
    assert backend.path_to_root(r["v2"].id) == [r["user"], r["v2"]]
    assert backend.path_to_root(r["edit"].id) == [r["edit"]]


def test_path_tail_gives_the_last_records_with_their_version_and_sibling_count(
    backend: ConversationStore,
) -> None:
    _, r = _branched(backend)
    tail = backend.path_tail(r["v1_leaf"].id, 3)
    assert tail == [
        (r["v1"], 1, 2),
        (r["q2"], 1, 1),
        (r["v1_leaf"], 1, 1),
    ]
    whole = backend.path_tail(r["v2"].id, 100)
    assert whole == [(r["user"], 1, 2), (r["v2"], 2, 2)]


def test_context_window_keeps_the_last_records_of_the_path_without_system_ones(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    parent = backend.add_message(conversation.id, "system", "system prompt", None).id
    for i in range(15):
        _, reply = add_turn(backend, conversation.id, parent, f"q{i}", f"a{i}")
        parent = reply.id
    window = backend.context_window(parent, limit=20)
    assert len(window) == 20
    assert [r.content for r in window[:2]] == ["q5", "a5"]
    assert window[-1].id == parent
    assert all(r.role != "system" for r in window)
    assert len(backend.context_window(parent, limit=100)) == 30
    assert backend.context_window(parent, limit=0) == []


def test_context_window_never_starts_on_a_tool_record_whose_call_was_cut_off(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper")
    user = backend.add_message(conversation.id, "user", "look", None)
    last_tool = add_tool_round(
        backend,
        conversation.id,
        user.id,
        [("c1", "read_file", {"path": "a"}, "A"), ("c2", "read_file", {"path": "b"}, "B")],
    )
    answer = backend.add_message(conversation.id, "assistant", "done", last_tool.id)
    window = backend.context_window(answer.id, limit=3)
    assert window == [answer]  # the last tool result alone would be an orphan
    whole = backend.context_window(answer.id, limit=5)
    assert [r.role for r in whole] == ["user", "assistant", "tool", "tool", "assistant"]


# -- remembered branches ---------------------------------------------------------------------


def test_latest_leaf_follows_the_remembered_choice_else_the_newest_child(
    backend: ConversationStore,
) -> None:
    conversation_id, r = _branched(backend)
    assert backend.latest_leaf(r["user"].id) == r["v1_leaf"]  # remembered
    assert backend.latest_leaf(r["v1_leaf"].id) == r["v1_leaf"]
    backend.set_active_leaf(conversation_id, r["v2"].id)
    assert backend.latest_leaf(r["user"].id) == r["v2"]
    assert backend.latest_leaf(r["v1"].id) == r["v1_leaf"]  # below v1, its own leaf
    newest = backend.add_message(conversation_id, "assistant", "v3", r["user"].id)
    assert backend.latest_leaf(r["user"].id) == newest  # where the user went last


def test_the_active_leaf_is_remembered_per_conversation(backend: ConversationStore) -> None:
    conversation_id, r = _branched(backend)
    other = backend.create_conversation("ide-helper")
    other_root = backend.add_message(other.id, "user", "elsewhere", None)
    assert backend.active_leaf(conversation_id) == r["v1_leaf"]
    backend.set_active_leaf(conversation_id, r["edit"].id)
    assert backend.active_leaf(conversation_id) == r["edit"]
    assert backend.active_leaf(other.id) == other_root
    assert backend.get_conversation(conversation_id).meta["active_leaf"] == r["edit"].id


def test_an_empty_conversation_has_no_active_leaf(backend: ConversationStore) -> None:
    conversation = backend.create_conversation("ide-helper")
    assert backend.active_leaf(conversation.id) is None


def test_moving_between_branches_does_not_reorder_the_conversation_list(
    backend: ConversationStore,
) -> None:
    conversation_id, r = _branched(backend)
    newer = backend.create_conversation("ide-helper", "newer")
    backend.set_active_leaf(conversation_id, r["v2"].id)
    assert backend.list_conversations()[0].id == newer.id


# -- deleting branches -----------------------------------------------------------------------


def test_delete_branch_removes_the_subtree_and_moves_the_active_leaf_to_a_survivor(
    backend: ConversationStore,
) -> None:
    conversation_id, r = _branched(backend)
    backend.delete_branch(r["v1"].id)
    left = {record.id for record in backend.list_messages(conversation_id)}
    assert left == {r["user"].id, r["v2"].id, r["edit"].id}
    assert backend.siblings(r["v2"].id) == [r["v2"]]  # its version stays 2
    assert backend.active_leaf(conversation_id) == r["v2"]
    assert backend.latest_leaf(r["user"].id) == r["v2"]


def test_deleting_another_branch_keeps_the_active_leaf(backend: ConversationStore) -> None:
    conversation_id, r = _branched(backend)
    backend.delete_branch(r["v2"].id)
    backend.delete_branch(r["edit"].id)
    assert backend.active_leaf(conversation_id) == r["v1_leaf"]
    assert len(backend.list_messages(conversation_id)) == 4


def test_deleting_every_root_empties_the_conversation_and_its_active_leaf(
    backend: ConversationStore,
) -> None:
    conversation_id, r = _branched(backend)
    backend.delete_branch(r["user"].id)
    assert backend.active_leaf(conversation_id) == r["edit"]
    backend.delete_branch(r["edit"].id)
    assert backend.list_messages(conversation_id) == []
    assert backend.active_leaf(conversation_id) is None
    assert "active_leaf" not in backend.get_conversation(conversation_id).meta


# -- search ------------------------------------------------------------------------------------


def test_search_finds_text_on_every_branch_and_conversation_with_a_marked_snippet(
    backend: ConversationStore,
) -> None:
    conversation_id, r = _branched(backend)
    hidden = backend.add_message(conversation_id, "assistant", "A pelican's pouch.", r["user"].id)
    other = backend.create_conversation("mediator", "Birds again")
    asked = backend.add_message(other.id, "user", "pelican budget?", None)
    hits = {hit.message_id: hit for hit in backend.search("pelican")}
    assert set(hits) == {hidden.id, asked.id}
    assert (hits[hidden.id].conversation_id, hits[hidden.id].role) == (conversation_id, "assistant")
    assert hits[asked.id].conversation_title == "Birds again"
    assert "pelican" in hits[hidden.id].snippet.lower()
    assert len(backend.search("pelican", limit=1)) == 1
    assert backend.search("pelican", 0) == []


def test_search_finds_tool_names_and_arguments(backend: ConversationStore) -> None:
    conversation = backend.create_conversation("ide-helper")
    user = backend.add_message(conversation.id, "user", "look around", None)
    add_tool_round(
        backend, conversation.id, user.id, [("c1", "search_code", {"query": "frobnicate"}, "ok")]
    )
    assert [hit.role for hit in backend.search("frobnicate")] == ["assistant"]
    assert {hit.role for hit in backend.search("search_code")} == {"assistant", "tool"}


@pytest.mark.parametrize("query", ['foo"(', "AND", "NEAR(a b", "'; DROP TABLE x; --", "", "  "])
def test_search_takes_any_text_without_raising(backend: ConversationStore, query: str) -> None:
    conversation = backend.create_conversation("ide-helper")
    backend.add_message(conversation.id, "user", "plain text with foo and AND words", None)
    assert isinstance(backend.search(query), list)


# -- export and import -----------------------------------------------------------------------


def test_markdown_export_follows_the_active_path_or_a_given_leaf(
    backend: ConversationStore,
) -> None:
    conversation_id, r = _branched(backend)
    text = backend.export_markdown(conversation_id)
    assert text.startswith("# Branched\n")
    assert "v1 leaf" in text
    assert "q edited" not in text
    other = backend.export_markdown(conversation_id, r["v2"].id)
    assert "v2" in other
    assert "v1 leaf" not in other
    with pytest.raises(StorageError) as caught:
        backend.export_markdown(conversation_id, "not-a-message")
    assert_sentence(caught, "not-a-message")


def test_jsonl_export_imports_into_an_empty_store_as_the_same_conversation(
    backend: ConversationStore, open_store: Callable[[], ConversationStore], tmp_path: Path
) -> None:
    conversation_id, r = _branched(backend)
    folder = backend.export_jsonl(conversation_id, tmp_path / "out")
    assert {path.name for path in folder.iterdir()} == {"meta.json", "messages.jsonl"}
    other = open_store()
    imported = other.import_jsonl(folder)
    original = backend.get_conversation(conversation_id)
    marks = {"imported_from": conversation_id, "imported_at": imported.meta["imported_at"]}
    assert imported == replace(original, meta={**original.meta, **marks})
    assert other.list_messages(conversation_id) == backend.list_messages(conversation_id)
    assert other.active_leaf(conversation_id) == r["v1_leaf"]
    assert other.latest_leaf(r["user"].id) == r["v1_leaf"]  # the choices came along
    assert [hit.message_id for hit in other.search("edited")] == [r["edit"].id]


def test_importing_into_the_same_store_makes_a_copy_with_new_ids_and_the_same_tree(
    backend: ConversationStore, tmp_path: Path
) -> None:
    conversation_id, r = _branched(backend)
    folder = backend.export_jsonl(conversation_id, tmp_path / "out")
    copy = backend.import_jsonl(folder)
    assert copy.id != conversation_id
    assert copy.title == "Branched"
    old, new = backend.list_messages(conversation_id), backend.list_messages(copy.id)
    assert not {m.id for m in old} & {m.id for m in new}

    def shape(records: list[MessageRecord]) -> list[tuple[str, str, int, int]]:
        return [(m.role, m.content, m.depth, m.version) for m in records]

    assert shape(new) == shape(old)
    leaf = backend.active_leaf(copy.id)
    assert leaf is not None
    assert shape(backend.path_to_root(leaf.id)) == shape(backend.path_to_root(r["v1_leaf"].id))


def test_a_malformed_import_is_refused_with_a_sentence_and_imports_nothing(
    backend: ConversationStore, tmp_path: Path
) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "meta.json").write_text(json.dumps({"title": "no profile"}))
    (folder / "messages.jsonl").write_text("")
    with pytest.raises(StorageError) as caught:
        backend.import_jsonl(folder)
    assert "\n" not in str(caught.value)
    assert "profile" in str(caught.value)
    with pytest.raises(StorageError):
        backend.import_jsonl(tmp_path / "missing")
    assert backend.list_conversations() == []


# -- prompt history --------------------------------------------------------------------------


def test_recent_prompts_are_the_users_distinct_messages_to_a_profile_newest_first(
    backend: ConversationStore,
) -> None:
    conversation = backend.create_conversation("ide-helper", "one")
    parent = None
    for text in ["alpha", "beta", "alpha", "   ", "gamma"]:
        user = backend.add_message(conversation.id, "user", text, parent)
        parent = backend.add_message(conversation.id, "assistant", "reply", user.id).id
    other = backend.create_conversation("mediator", "two")
    backend.add_message(other.id, "user", "not mine", None)
    assert backend.recent_prompts("ide-helper") == ["gamma", "alpha", "beta"]
    assert backend.recent_prompts("ide-helper", limit=2) == ["gamma", "alpha"]
    assert backend.recent_prompts("mediator") == ["not mine"]
    assert backend.recent_prompts("nobody") == []
