"""The user's side of a turn: the one place a user message and its conversation are written.

Every front end (the chat screen, the ``ask`` verb, the mediator demo, and any later one) hands
a :class:`NewMessage` to :func:`store_user_message`, directly or through
:meth:`agents.runtime.agent_runtime.AgentRuntime.send`; none of them writes a user record itself. So a new
conversation is created, titled and retitled the same way everywhere, and the message is
committed before any model is called.

A profile whose conversations hold private messages (``ProfileTraits.private_messages``)
takes its title only from a message everyone may read: until one is sent the title names the
participants (:func:`neutral_title`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.profile import ProfileTraits
from agents.profile_registry import UnknownProfileError, get_traits
from agents.shared_space import SHARED
from agents.shared_space.space import names_in_words
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


def _traits(profile: str) -> ProfileTraits:
    try:
        return get_traits(profile)
    except UnknownProfileError:
        return ProfileTraits()


def neutral_title(participants: Sequence[str]) -> str:
    """The title of a space until someone says something to everyone."""
    return f"Shared space with {names_in_words(participants)}" if participants else DEFAULT_TITLE


def _may_name(message: NewMessage, traits: ProfileTraits) -> bool:
    """Whether the message's words may become the title: always, unless the profile has
    private messages and this one is not for everyone (a title shows in every view)."""
    meta = message.meta
    # as a stored record reads: no visibility is the sender's own, no sender is everyone's
    return (
        not traits.private_messages
        or (meta.get("visibility") or meta.get("sender") or SHARED) == SHARED
    )


def _open_conversation(store: ConversationStore, message: NewMessage) -> Conversation:
    traits = _traits(message.profile)
    may_name = _may_name(message, traits)
    if message.conversation_id is None:
        participants = message.conversation_meta.get("participants") or traits.participants
        title = title_from(message.text) if may_name else neutral_title(participants)
        return store.create_conversation(
            message.profile, title, meta=dict(message.conversation_meta)
        )
    conversation = store.get_conversation(message.conversation_id)
    if not may_name:
        return conversation
    first = message.parent_id is None and not message.at_active_leaf
    title = conversation.title
    placeholder = traits.private_messages and title == neutral_title(
        conversation.meta.get("participants") or traits.participants
    )
    if (
        placeholder
        or (title == DEFAULT_TITLE and first)
        # "hi" named the conversation: the first message that says something renames it
        or (is_small_talk(title) and not is_small_talk(message.text))
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
