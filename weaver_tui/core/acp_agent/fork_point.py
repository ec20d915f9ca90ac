"""Where a session stands or forks: the message a ``session/fork`` starts at (the session's
own leaf, or a message of its conversation that ``_meta.messageId`` names; nothing else), and
the sentence for a session that is not there."""

from __future__ import annotations

from storage.models import Conversation, MessageRecord
from storage.printable import printable
from storage.store import ConversationStore, NotFoundError
from weaver_tui.core.acp_agent.failures import turn_failure
from weaver_tui.core.acp_agent.session_leaves import Placement


def unknown_session(session_id: str) -> Exception:
    return turn_failure(
        f"There is no conversation or session {printable(session_id)}: start a new session, or "
        "pick a conversation id from `weaver-tui conversations` (or `session/list`).",
        "not_found",
    )


def message_of(store: ConversationStore, conversation: Conversation, at: object) -> MessageRecord:
    """The message ``_meta.messageId`` names, when it is one of ``conversation``'s."""
    record: MessageRecord | None = None
    if isinstance(at, str):
        try:
            record = store.get_message(at)
        except NotFoundError:
            record = None
    if record is None or record.conversation_id != conversation.id:
        raise turn_failure(
            "The message to fork at is not one of this session's messages: give the id of a "
            "message in its conversation, or leave it out to fork at the latest message.",
            "invalid_params",
        )
    return record


def leaf_record(
    store: ConversationStore, conversation: Conversation, placement: Placement
) -> MessageRecord:
    """The message the session stands at (its own leaf, else the conversation's active one)."""
    record: MessageRecord | None = None
    if placement.placed and placement.leaf_id is not None:
        try:
            record = store.get_message(placement.leaf_id)
        except NotFoundError:
            record = None
    elif not placement.placed:
        record = store.active_leaf(conversation.id)
    if record is None:
        raise turn_failure(
            "This session has no message to fork at yet: send a prompt first, or name a "
            "message to fork at.",
            "empty",
        )
    return record
