"""The pause waiting at the end of a branch: a turn stopped by ``interrupt()`` keeps what it
asks in its record's ``pending_interrupt`` meta; a user message sent after it abandons it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from storage.store import ConversationStore

T = TypeVar("T")


def pending_at_leaf(
    store: ConversationStore,
    conversation_id: str,
    leaf_id: str | None,
    read: Callable[[Any], T | None],
) -> tuple[str, T] | None:
    """(record id, what ``read`` makes of the pause's values) for the pause at the end of the
    path to ``leaf_id`` (default: the active leaf) that ``read`` recognises, else ``None``."""
    if leaf_id is None:
        leaf = store.active_leaf(conversation_id)
        if leaf is None:
            return None
        leaf_id = leaf.id
    for record in reversed(store.path_to_root(leaf_id)):
        if record.role == "user":
            return None
        pending = record.meta.get("pending_interrupt")
        if pending:
            value = read(pending.get("values"))
            if value is not None:
                return record.id, value
    return None
