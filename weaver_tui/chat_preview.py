"""The bottom of a long conversation, read first so it is on screen before the rest.

Opening a conversation reads its whole tree (the tree pane, version counts, branch positions
all need it): about 0.15 s for a 2,000-message path in a 10,000-record tree on the 2-core
benchmark machine, all of it before the first frame that shows a message. The last
:data:`PREVIEW_MESSAGES` records of the active path are one small query
(:meth:`storage.store.ConversationStore.path_tail`, with their version numbers), so the chat
screen draws them first and reads the tree right after; until then it only shows (see
``ChatScreen.conversation_open``).

A preview is only made for a path longer than the preview itself (a short one is read whole
as fast), and never for a profile whose traits say ``preview=False`` (the mediator's views show
each reader only what they may see, which only the fully opened conversation knows).
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.profile_registry import UnknownProfileError, get_traits
from storage.models import Conversation
from storage.store import ConversationStore
from weaver_tui.core.chat_state.rows import build_item
from weaver_tui.core.message_item import MessageItem

PREVIEW_MESSAGES = 60
"""Records of the path drawn before the rest is read: more than a tall terminal shows."""


@dataclass(frozen=True)
class Preview:
    conversation: Conversation
    items: list[MessageItem]
    """The rows of the path's last records, as the fully opened conversation builds them."""


def profile_badge(profile: str) -> str:
    """The header's label for ``profile``: the badge its traits declare, else its name."""
    try:
        return get_traits(profile).badge or profile
    except UnknownProfileError:
        return profile


def read_preview(
    store: ConversationStore, profile: str | None, conversation_id: str | None
) -> Preview | None:
    """The preview of the conversation the chat screen is about to open (``conversation_id``,
    else the latest of ``profile``), or ``None`` when there is nothing worth previewing."""
    if conversation_id is not None:
        conversation = store.get_conversation(conversation_id)
    else:
        conversations = store.list_conversations(profile, limit=1)
        if not conversations:
            return None
        conversation = conversations[0]
    try:
        traits = get_traits(conversation.profile)
    except UnknownProfileError:
        return None
    if not traits.preview:
        return None
    leaf = store.active_leaf(conversation.id)
    if leaf is None:
        return None
    tail = store.path_tail(leaf.id, PREVIEW_MESSAGES + 1)
    if len(tail) <= PREVIEW_MESSAGES:
        return None
    items = [
        build_item(record, version, count, traits)
        for record, version, count in tail[1:]
        if record.role != "system"
    ]
    return Preview(conversation, items)
