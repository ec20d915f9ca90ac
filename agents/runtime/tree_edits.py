"""The tree operations a front end asks for outside a turn: a new version of a reply, a
branch copied into a conversation of its own, a branch deleted, a context mark, a summary of
older turns.

Each stores through the store here, in the runtime, and returns the event that carries what it
wrote (:data:`~agents.runtime.events.TreeEvent`), so a front end applies the event and neither
writes a record nor reads back what it was handed. Every failure of the store is a
``RunError`` with one sentence, and then nothing was written; none raises. A turn (send, answer
again, continue, resume) goes through :class:`~agents.runtime.agent_runtime.AgentRuntime`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from agents.errors import ConfigError, WeaverError
from agents.runtime.events import (
    BranchCopied,
    BranchDeleted,
    RecordSaved,
    ReplyEdited,
    RunError,
)
from storage.store import ConversationStore, StorageError

logger = logging.getLogger(__name__)

KEPT_ON_EDIT = ("provider", "model", "sender", "visibility")
"""What a reply's new version keeps of its meta: who wrote it and for whom, nothing of how the
turn went (usage, errors, marks)."""


def _refused(exc: StorageError) -> RunError:
    return RunError(ConfigError(str(exc)))


class TreeEdits:
    """Tree operations on ``store`` that run no model, each returning its event."""

    def __init__(self, store: ConversationStore) -> None:
        self.store = store

    def edit_reply(self, reply_id: str, text: str) -> ReplyEdited | RunError:
        """Store ``text`` as a new version of the reply ``reply_id`` (a sibling: the original
        stays), keeping who wrote it and for whom, and noting which reply it edits."""
        try:
            original = self.store.get_message(reply_id)
            if original.role != "assistant":
                return RunError(ConfigError("Only a reply can be edited into a new reply."))
            kept = {k: v for k, v in original.meta.items() if k in KEPT_ON_EDIT}
            record = self.store.add_message(
                original.conversation_id,
                "assistant",
                text,
                original.parent_id,
                meta={**kept, "edited_from": reply_id},
            )
        except StorageError as exc:
            return _refused(exc)
        return ReplyEdited(record)

    def copy_branch(self, message_id: str) -> BranchCopied | RunError:
        """Copy the path to ``message_id`` into a new conversation (see
        :mod:`storage.branch_copy`)."""
        from storage.branch_copy import branch_to_conversation

        try:
            copied = len(self.store.path_to_root(message_id))
            conversation = branch_to_conversation(self.store, message_id)
        except StorageError as exc:
            return _refused(exc)
        return BranchCopied(conversation, message_id, copied)

    def delete(self, message_id: str) -> BranchDeleted | RunError:
        """Delete ``message_id`` and everything below it; the active leaf moves to a survivor."""
        try:
            conversation_id = self.store.get_message(message_id).conversation_id
            self.store.delete_branch(message_id)
            leaf = self.store.active_leaf(conversation_id)
        except StorageError as exc:
            return _refused(exc)
        return BranchDeleted(conversation_id, message_id, leaf)

    def mark_context(self, message_id: str, mark: str | None) -> RecordSaved | RunError:
        """Set how the model reads ``message_id`` (``pinned``: always sent, ``excluded``: left
        out), or ``None``: as usual again."""
        try:
            record = self.store.update_message(message_id, meta={"context": mark})
        except StorageError as exc:
            return _refused(exc)
        return RecordSaved(record)

    async def summarise(
        self,
        leaf_id: str,
        model: object,
        *,
        extractive: bool = False,
        settings: Mapping[str, Any] | None = None,
    ) -> RecordSaved | RunError | None:
        """Summarise the branch to ``leaf_id`` above its latest turns (see
        :func:`agents.older_turns_summary.summarise_older`; ``settings``' ``summary`` role writes it when
        set): the record that holds the summary, a ``RunError`` when the model or the store
        failed (nothing stored), ``None`` when the branch is short enough."""
        from agents.older_turns_summary import summarise_older

        try:
            record = await summarise_older(
                self.store, model, leaf_id, extractive=extractive, settings=settings
            )
        except WeaverError as exc:
            return RunError(exc)
        except Exception as exc:  # noqa: BLE001 (a provider's failure, in one sentence)
            sentence = getattr(exc, "user_message", None) or str(exc)
            logger.warning("summary failed", extra={"error": sentence})
            return RunError(ConfigError(sentence[:300]))
        return None if record is None else RecordSaved(record)
