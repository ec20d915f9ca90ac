"""Conversation storage: the message tree on SQLite, export/import, the graph checkpointer.

Imports nothing of weaver's own and never imports Textual. The checkpointer
(:mod:`storage.checkpointer`) is not imported here: it pulls in LangGraph.
"""

from storage.models import Conversation, MessageRecord, MessageStatus, Role
from storage.rows import MessageRow
from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore, NotFoundError, SearchHit, StorageError
from storage.tree_index import TreeIndex

__all__ = [
    "Conversation",
    "ConversationStore",
    "MessageRecord",
    "MessageRow",
    "MessageStatus",
    "NotFoundError",
    "Role",
    "SearchHit",
    "SqliteConversationStore",
    "StorageError",
    "TreeIndex",
]
