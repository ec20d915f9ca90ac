"""A branch as a conversation of its own: the path from the root to one message, copied.

The copy is a new conversation of the same profile whose messages are the path's, in order,
with their roles, text, status and meta (tool calls and results keep their pairing); the
original is not touched. Patches the user accepted on the path stay accepted on their copies
(:mod:`storage.accepted_patches`), so undo works in the copy as in the original. The new conversation records where it came from
(``meta["branched_from"]``: the conversation, the message, and the title then).
"""

from __future__ import annotations

from typing import Any

from storage.models import Conversation, MessageStatus
from storage.store import ConversationStore

CARRIED_META = ("project_root", "participants", "instructions")
"""Conversation settings the copy keeps (the branch still works in the same folder ...)."""


def branch_to_conversation(store: ConversationStore, message_id: str) -> Conversation:
    """Copy the path to ``message_id`` into a new conversation; return it."""
    path = store.path_to_root(message_id)
    source = store.get_conversation(path[-1].conversation_id)
    meta: dict[str, Any] = {k: source.meta[k] for k in CARRIED_META if k in source.meta}
    meta["branched_from"] = {
        "conversation_id": source.id,
        "message_id": message_id,
        "title": source.title,
    }
    copy = store.create_conversation(source.profile, f"{source.title} (branch)", meta=meta)
    parent: str | None = None
    copies: dict[str, str] = {}
    for record in path:
        status = record.status
        if status is MessageStatus.STREAMING:  # a reply still being written elsewhere
            status = MessageStatus.CANCELLED
        record_meta = dict(record.meta)
        if status is not MessageStatus.COMPLETE:
            record_meta["status"] = status.value
        parent = store.add_message(
            copy.id, record.role, record.content, parent, meta=record_meta
        ).id
        copies[record.id] = parent
    store.copy_accepted_patches(copies)  # the copy's patches were accepted here too
    return store.get_conversation(copy.id)
