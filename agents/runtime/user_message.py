"""The user's side of a turn: the one place a user message and its conversation are written.

Every front end (the chat screen, the ``ask`` verb, the mediator demo, and any later one) hands
a :class:`NewMessage` to :func:`store_user_message`, directly or through
:meth:`agents.runtime.agent_runtime.AgentRuntime.send`; none of them writes a user record itself. So a new
conversation is created, titled and retitled the same way everywhere, and the message is
committed before any model is called.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from storage.models import Conversation, MessageRecord
from storage.store import ConversationStore

DEFAULT_TITLE = "New conversation"
TITLE_LENGTH = 60

_SMALL_TALK = re.compile(
    r"(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|thanks|thank you|"
    r"ok(?:ay)?|test(?:ing)?)(?:\s+(?:there|all|everyone|again|you))?[\s!.,?]*",
    re.IGNORECASE,
)


def is_small_talk(text: str) -> bool:
    """A message that greets or thanks and says nothing else ("hi", "Hello there!")."""
    return _SMALL_TALK.fullmatch(text.strip()) is not None


def title_from(text: str) -> str:
    """A conversation title from the first user message: its first line, cut short."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), DEFAULT_TITLE)
    return first if len(first) <= TITLE_LENGTH else first[: TITLE_LENGTH - 1] + "…"


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A message the user sends, and where it goes.

    ``conversation_id`` ``None`` starts a conversation of ``profile`` (with
    ``conversation_meta``). ``parent_id`` is the message it answers; with ``at_active_leaf``
    it goes below the conversation's active leaf instead, read when it is stored (the ``ask``
    verb and the demo continue a conversation that way, under the turn lock).
    """

    profile: str
    text: str
    conversation_id: str | None = None
    parent_id: str | None = None
    at_active_leaf: bool = False
    meta: Mapping[str, Any] = field(default_factory=dict)
    conversation_meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """The user record as written, and its conversation as it stands after the write."""

    conversation: Conversation
    record: MessageRecord


def _open_conversation(store: ConversationStore, message: NewMessage) -> Conversation:
    if message.conversation_id is None:
        return store.create_conversation(
            message.profile, title_from(message.text), meta=dict(message.conversation_meta)
        )
    conversation = store.get_conversation(message.conversation_id)
    first = message.parent_id is None and not message.at_active_leaf
    if (conversation.title == DEFAULT_TITLE and first) or (
        # "hi" named the conversation: the first message that says something renames it
        is_small_talk(conversation.title) and not is_small_talk(message.text)
    ):
        conversation = store.rename_conversation(conversation.id, title_from(message.text))
    return conversation


def store_user_message(store: ConversationStore, message: NewMessage) -> StoredMessage:
    """Commit ``message`` (creating or retitling its conversation first) and return both."""
    conversation = _open_conversation(store, message)
    parent_id = message.parent_id
    if message.at_active_leaf:
        leaf = store.active_leaf(conversation.id)
        parent_id = leaf.id if leaf else None
    record = store.add_message(
        conversation.id, "user", message.text, parent_id, meta=dict(message.meta) or None
    )
    return StoredMessage(conversation, record)
