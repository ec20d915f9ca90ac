"""Conversation storage: the message tree on SQLite, export/import, the graph checkpointer.

Imports nothing of weaver's own and never imports Textual.
"""

from storage.models import Conversation, MessageRecord, MessageStatus, Role

__all__ = ["Conversation", "MessageRecord", "MessageStatus", "Role"]
