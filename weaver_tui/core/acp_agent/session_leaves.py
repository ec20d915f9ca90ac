"""Where each ACP session stands in its conversation's tree.

Several sessions may work on one conversation (a session and its forks, or one loaded twice):
each remembers its own leaf, stored in the conversation's meta under a key of its own
(``acp_leaf:<session id>``, one key per session, so two sessions never write the same key and
never share a remembered leaf). A session's next message goes below its own leaf, whatever the
app or another session did to the conversation since; a conversation no session has placed
yet continues from its active leaf (the branch the app shows).

Forking at a message gives the new session a leaf of its own: after a reply, the reply (the
next message answers it); at a user message, that message's parent, so the next message is a
new version of the user message (a sibling), as editing it in the app would make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.models import Conversation, MessageRecord

LEAF_KEY_PREFIX = "acp_leaf:"


def leaf_key(session_id: str) -> str:
    """The conversation meta key that holds ``session_id``'s leaf."""
    return LEAF_KEY_PREFIX + session_id


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a session's next message goes: below ``leaf_id`` (``None``: a new first message
    of the conversation) when ``placed``, else below the conversation's active leaf."""

    placed: bool = False
    leaf_id: str | None = None

    def stored(self) -> dict[str, Any]:
        """The meta value that remembers this placement."""
        return {"leaf": self.leaf_id}


def remembered(conversation: Conversation, session_id: str) -> Placement:
    """The placement ``session_id`` left in ``conversation`` (unplaced when it left none, or
    when the stored value is not one this module wrote)."""
    value = conversation.meta.get(leaf_key(session_id))
    if not isinstance(value, dict):
        return Placement()
    leaf = value.get("leaf")
    if leaf is not None and not isinstance(leaf, str):
        return Placement()
    return Placement(True, leaf)


def fork_placement(record: MessageRecord) -> Placement:
    """The placement of a session forked at ``record``: below a reply, or beside a user
    message (its parent, so the next message is its sibling)."""
    if record.role == "user":
        return Placement(True, record.parent_id)
    return Placement(True, record.id)


def sessions_of(conversation: Conversation) -> list[str]:
    """The ids of the sessions that remember a leaf in ``conversation``."""
    return [
        key[len(LEAF_KEY_PREFIX) :]
        for key in conversation.meta
        if key.startswith(LEAF_KEY_PREFIX) and len(key) > len(LEAF_KEY_PREFIX)
    ]
