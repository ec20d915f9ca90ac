"""Switching the active leaf writes only the fork choices that changed, and stays exact."""

from __future__ import annotations

from storage.models import Role
from storage.sqlite_store import SqliteConversationStore


def test_switching_back_and_forth_rewrites_only_the_changed_fork(
    store: SqliteConversationStore,
) -> None:
    conv = store.create_conversation("ide-helper", "deep")
    parent: str | None = None
    chain: list[str] = []
    for i in range(60):
        role: Role = "user" if i % 2 == 0 else "assistant"
        parent = store.add_message(conv.id, role, f"m{i}", parent).id
        chain.append(parent)
    side = store.add_message(conv.id, "assistant", "other version", chain[49])
    side_leaf = store.add_message(conv.id, "user", "below the other version", side.id)
    for target, expected_child in ((chain[-1], chain[50]), (side_leaf.id, side.id)) * 2:
        with store._db.read() as conn:
            before = conn.total_changes
        store.set_active_leaf(conv.id, target)
        with store._db.read() as conn:
            changed = conn.total_changes - before
        # one fork choice and the conversation's meta, not one row per level of the path
        assert changed <= 2
        choices = store.branch_choices(conv.id)
        assert choices[chain[49]] == expected_child
        assert store.active_leaf(conv.id).id == target  # type: ignore[union-attr]
        assert store.latest_leaf(chain[10]).id == target
    # every level of the path is still remembered (choices written by earlier steps)
    choices = store.branch_choices(conv.id)
    assert all(choices[chain[i]] == chain[i + 1] for i in range(49))
    assert choices[""] == chain[0]
