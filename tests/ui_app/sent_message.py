"""A user's message stored the way the runtime's one way in stores it, for tests of the chat's
state that run no turn: the state builds the message, the runtime's writer stores it, and the
state applies what ``MessageStored`` would carry."""

from __future__ import annotations

from agents.runtime.user_message import store_user_message
from storage.models import MessageRecord
from weaver_tui.core.chat_state import ChatState


def send_stored(state: ChatState, text: str, parent_id: str | None) -> MessageRecord:
    """Store ``text`` below ``parent_id`` as :meth:`AgentRuntime.send` would, and apply it."""
    stored = store_user_message(state.store, state.new_message(text, parent_id))
    return state.apply_stored(stored.conversation, stored.record)
