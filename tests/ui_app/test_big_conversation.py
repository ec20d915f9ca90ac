"""Opening and switching a branched conversation the fast way gives the same answers as the
slow way: records decoded lazily from rows, rows of the path reused above a fork, and the
checked-out branch remembered in the store behind the screen (on the store's writer thread).
All against a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.models import Role
from storage.sqlite_store import SqliteConversationStore
from storage.tree_index import TreeIndex
from tests.ui_app.sent_message import send_stored
from weaver_tui.core.chat_state import ChatState

PATH = 40
"""Messages on the main path; every assistant reply on it also has a second version whose
own three-message continuation is a side branch."""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteConversationStore]:
    opened = SqliteConversationStore(tmp_path / "weaver.db")
    yield opened
    opened.close()


def _branched(store: SqliteConversationStore) -> tuple[str, list[str], dict[str, str]]:
    """A conversation of ``PATH`` messages with a side branch at every reply; returns its id,
    the main path, and main reply -> its second version."""
    conversation = store.create_conversation("ide-helper", "Branched")
    main: list[str] = []
    parent: str | None = None
    for n in range(PATH):
        role: Role = "user" if n % 2 == 0 else "assistant"
        meta = {"provider": "openai-compatible", "model": "m"} if role == "assistant" else None
        parent = store.add_message(conversation.id, role, f"main {n}", parent, meta).id
        main.append(parent)
    others: dict[str, str] = {}
    for n in range(1, PATH, 2):
        other = store.add_message(conversation.id, "assistant", f"other {n}", main[n - 1])
        others[main[n]] = other.id
        under = other.id
        for k in range(3):
            role = "user" if k % 2 == 0 else "assistant"
            under = store.add_message(conversation.id, role, f"side {n}.{k}", under).id
    store.set_active_leaf(conversation.id, main[-1])
    return conversation.id, main, others


def _opened(
    store: SqliteConversationStore,
) -> tuple[ChatState, tuple[str, list[str], dict[str, str]]]:
    """A chat state opened on a new :func:`_branched` conversation, and what that returned."""
    branched = _branched(store)
    state = ChatState(store, "ide-helper")
    state.open(branched[0])
    return state, branched


def test_an_index_over_rows_answers_like_one_over_records(
    store: SqliteConversationStore,
) -> None:
    conversation_id, main, others = _branched(store)
    eager = TreeIndex(store.list_messages(conversation_id))
    lazy = TreeIndex.from_rows(store.message_rows(conversation_id))
    assert lazy.decoded_count == 0
    assert sorted(lazy) == sorted(eager)
    for message_id in eager:
        assert lazy.children(message_id) == eager.children(message_id)
        assert lazy.parent(message_id) == eager.parent(message_id)
        assert lazy.version_of(message_id) == eager.version_of(message_id)
        assert lazy.descendant_count(message_id) == eager.descendant_count(message_id)
    assert lazy.children(None) == eager.children(None)
    assert lazy.decoded_count == 0  # the shape alone decodes nothing
    assert lazy.path_to(main[-1]) == main
    assert lazy.get(main[5]) == eager.get(main[5])
    assert lazy.nearest(others[main[5]], "user") == main[4]


def test_a_copy_is_independent_but_shares_decoded_records(
    store: SqliteConversationStore,
) -> None:
    conversation_id, main, _ = _branched(store)
    index = TreeIndex.from_rows(store.message_rows(conversation_id))
    twin = index.copy()
    assert twin.get(main[3]) is index.get(main[3])
    added = store.add_message(conversation_id, "user", "only in the copy", main[-1])
    twin.add(added)
    assert added.id in twin
    assert added.id not in index
    twin.remove_branch(main[-2])
    assert main[-1] not in twin
    assert main[-1] in index
    assert main[-1] in index.children(main[-2])
    assert index.children(main[-1]) == []


def test_opening_decodes_the_active_path_not_the_tree(store: SqliteConversationStore) -> None:
    state, (_conversation_id, main, _) = _opened(store)
    assert state.leaf_id == main[-1]
    assert len(state.index) == PATH + 4 * (PATH // 2)
    assert state.index.decoded_count == PATH
    assert [item.content for item in state.path_items()] == [f"main {n}" for n in range(PATH)]
    assert state.path_items()[1].badge
    assert state.path_items()[1].sibling_count == 2


def test_a_switch_reuses_the_rows_above_the_fork_and_rebuilds_below(
    store: SqliteConversationStore,
) -> None:
    state, (conversation_id, main, others) = _opened(store)
    before = state.path_items()
    fork = PATH - 9  # a reply nine messages from the bottom
    assert state.flip_version(main[fork], +1) is not None
    after = state.path_items()
    assert all(a is b for a, b in zip(after[:fork], before[:fork], strict=True))
    assert [item.content for item in after[fork:]] == [f"other {fork}"] + [
        f"side {fork}.{k}" for k in range(3)
    ]
    fresh = ChatState(store, "ide-helper")
    fresh.open(conversation_id)
    assert fresh.path_items() == after  # what a cold open of the remembered branch shows
    # a record above the fork that changed is rebuilt, not taken over
    store.update_message(main[2], content="main 2, edited")
    state.refresh(main[2])
    assert state.path_items()[2].content == "main 2, edited"
    assert state.flip_version(others[main[fork]], -1) == main[-1]
    assert [item.content for item in state.path_items()][2] == "main 2, edited"


def test_checkouts_written_behind_reach_the_store_in_order(
    store: SqliteConversationStore,
) -> None:
    state, (conversation_id, main, others) = _opened(store)
    for n in (PATH - 1, 5, 17):  # flip three replies back and forth, quickly
        reply = main[n]
        state.flip_version(reply, +1)
        state.flip_version(others[reply], -1)
        state.flip_version(reply, +1)
    expected = state.leaf_id
    assert expected is not None
    assert expected == state.index.path_to(expected)[-1]
    state.settle()
    assert store.active_leaf(conversation_id).id == expected  # type: ignore[union-attr]
    # the choice at every fork was remembered too: checking out the first user message
    # leads back down the same branch
    assert store.latest_leaf(main[0]).id == expected
    again = ChatState(store, "ide-helper")
    assert again.open_latest()
    assert again.leaf_id == expected


def test_a_message_sent_right_after_a_checkout_stays_the_active_leaf(
    store: SqliteConversationStore,
) -> None:
    state, (conversation_id, main, others) = _opened(store)
    state.flip_version(main[7], +1)
    sent = send_stored(state, "after the switch", state.leaf_id)
    assert store.active_leaf(conversation_id).id == sent.id  # type: ignore[union-attr]
    assert store.path_to_root(sent.id)[7].id == others[main[7]]


def test_the_branch_position_counts_leaves_in_tree_order(
    store: SqliteConversationStore,
) -> None:
    state, (conversation_id, main, others) = _opened(store)
    index = state.index
    in_order: list[str] = []  # depth first, children in version order
    stack = list(reversed(index.children(None)))
    while stack:
        current = stack.pop()
        kids = index.children(current)
        stack.extend(reversed(kids))
        if not kids:
            in_order.append(current)
    for position, leaf in enumerate(in_order, 1):
        state.leaf_id = leaf
        branch = state.branch_position()
        assert (branch.index, branch.count) == (position, len(in_order))
        assert branch.depth == len(index.path_to(leaf))
    state.leaf_id = main[5]  # not a leaf: a reply is on its way
    assert state.branch_position().index == 0
    added = store.add_message(conversation_id, "user", "a new leaf", others[main[1]])
    state.refresh(added.id)
    state.leaf_id = added.id
    assert state.branch_position().count == len(in_order) + 1
