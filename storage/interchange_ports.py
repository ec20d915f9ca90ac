"""What export and import need of a store: the few reads and the one bulk insert they use.

:mod:`storage.export` and :mod:`storage.importer` take any store with these methods, so they
depend on this module rather than on the SQLite store that offers them through its mixin
(:class:`storage.interchange.InterchangeOps`).
"""

from __future__ import annotations

from typing import Protocol

from storage.audience import Viewer
from storage.models import Conversation, MessageRecord
from storage.rows import MessageRow
from storage.tree_index import TreeIndex


class ExportSource(Protocol):
    """A store that a conversation is exported from."""

    def get_conversation(self, conversation_id: str) -> Conversation: ...
    def tree_index(self, conversation_id: str, viewer: Viewer = None) -> TreeIndex: ...
    def list_messages(self, conversation_id: str) -> list[MessageRecord]: ...
    def message_rows(self, conversation_id: str, viewer: Viewer = None) -> list[MessageRow]: ...
    def path_to_root(self, message_id: str, viewer: Viewer = None) -> list[MessageRecord]: ...
    def branch_choices(self, conversation_id: str) -> dict[str, str]: ...


class ImportTarget(Protocol):
    """A store that an exported conversation is imported into."""

    def get_conversation(self, conversation_id: str) -> Conversation: ...
    def message_ids_in_use(self, ids: list[str]) -> set[str]: ...
    def import_tree(
        self, conversation: Conversation, records: list[MessageRecord], choices: dict[str, str]
    ) -> Conversation: ...
