"""The pause waiting at the end of a branch: a turn stopped by ``interrupt()`` keeps what it
asks in its record's ``pending_interrupt`` meta; a user message sent after it abandons it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from storage.models import MessageRecord
from storage.store import ConversationStore

T = TypeVar("T")


def paused_here(record: MessageRecord) -> Mapping[str, Any] | None:
    """The pause ``record`` keeps, if it is its own conversation's; else ``None``.

    A turn pauses on its own checkpoint thread, named ``{conversation id}:{reply id}`` when
    the turn starts. A record copied into another conversation (a branch copy) keeps the
    original's meta, and with it a thread that belongs to the original: resuming it there
    would continue the original's turn (apply its patch, answer its approval) from another
    conversation and leave the original's record waiting for ever. So a pause counts only
    where its thread is the record's own conversation's: never offered, never resumed
    elsewhere (:meth:`agents.runtime.agent_runtime.AgentRuntime.resume_turn` asks this too)."""
    pending = record.meta.get("pending_interrupt")
    if not isinstance(pending, Mapping):
        return None
    thread = pending.get("thread_id")
    if not isinstance(thread, str) or not thread.startswith(f"{record.conversation_id}:"):
        return None
    return pending


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
        pending = paused_here(record)
        if pending:
            value = read(pending.get("values"))
            if value is not None:
                return record.id, value
    return None
