"""Export, import and the raw reads they need (a mixin of the SQLite store).

The formats themselves live in :mod:`storage.export` and :mod:`storage.importer`; this mixin
gives them the store methods of the interface and a one-transaction bulk insert.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from storage.codec import (
    CONVERSATION_COLUMNS,
    dump_meta,
    split_status,
    storable_text,
    time_to_text,
    tool_text,
)
from storage.database import Database
from storage.export import to_markdown, write_jsonl
from storage.importer import read_jsonl
from storage.models import Conversation, MessageRecord
from storage.printable import printable_title

if TYPE_CHECKING:
    from storage.audience import Viewer
    from storage.rows import MessageRow
    from storage.tree_index import TreeIndex

logger = logging.getLogger(__name__)


class InterchangeOps:
    """Export/import methods of :class:`storage.sqlite_store.SqliteConversationStore`."""

    _db: Database

    def get_conversation(self, conversation_id: str) -> Conversation:  # provided by the store
        raise NotImplementedError

    if TYPE_CHECKING:  # provided by the store, read by the export

        def tree_index(self, conversation_id: str, viewer: Viewer = None) -> TreeIndex: ...
        def list_messages(self, conversation_id: str) -> list[MessageRecord]: ...
        def message_rows(self, conversation_id: str, viewer: Viewer = None) -> list[MessageRow]: ...
        def path_to_root(self, message_id: str, viewer: Viewer = None) -> list[MessageRecord]: ...

    def export_markdown(
        self, conversation_id: str, leaf_id: str | None = None, viewer: Viewer = None
    ) -> str:
        return to_markdown(self, conversation_id, leaf_id, viewer)

    def export_jsonl(self, conversation_id: str, directory: Path, viewer: Viewer = None) -> Path:
        return write_jsonl(self, conversation_id, directory, viewer)

    def import_jsonl(self, directory: Path) -> Conversation:
        return read_jsonl(self, directory)

    def message_ids_in_use(self, ids: list[str]) -> set[str]:
        """Which of ``ids`` already name a message (in any conversation)."""
        found: set[str] = set()
        with self._db.read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                rows = conn.execute(f"SELECT id FROM messages WHERE id IN ({marks})", chunk)
                found.update(row[0] for row in rows)
        return found

    def branch_choices(self, conversation_id: str) -> dict[str, str]:
        """Parent id (``''`` for the roots) -> the child chosen there last."""
        with self._db.read() as conn:
            return dict(
                conn.execute(
                    "SELECT parent_key, child_id FROM branch_choices WHERE conversation_id = ?",
                    (conversation_id,),
                ).fetchall()
            )

    def import_tree(
        self,
        conversation: Conversation,
        records: list[MessageRecord],
        choices: dict[str, str],
    ) -> Conversation:
        """Insert a whole conversation as given (ids, versions, times) in one transaction.

        Used by import; the caller has validated the structure and chosen non-colliding ids.
        """
        with self._db.write() as conn:
            conn.execute(
                f"INSERT INTO conversations ({CONVERSATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    conversation.id,
                    printable_title(conversation.title),
                    conversation.profile,
                    time_to_text(conversation.created_at),
                    time_to_text(conversation.updated_at),
                    dump_meta(conversation.meta),
                ),
            )
            rows = []
            for record in sorted(records, key=lambda r: r.depth):
                rest, status = split_status(record.meta)
                rows.append(
                    (
                        record.id,
                        conversation.id,
                        record.role,
                        storable_text(record.content),
                        record.parent_id,
                        record.depth,
                        record.version,
                        status,
                        time_to_text(record.created_at),
                        dump_meta(rest),
                        tool_text(rest),
                    )
                )
            conn.executemany(
                "INSERT INTO messages (id, conversation_id, role, content, parent_id, depth, "
                "version, status, created_at, meta, tool_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            conn.executemany(
                "INSERT INTO branch_choices (conversation_id, parent_key, child_id) VALUES (?, ?, ?)",
                [(conversation.id, parent, child) for parent, child in choices.items()],
            )
        logger.info("imported conversation %s (%d records)", conversation.id, len(records))
        return self.get_conversation(conversation.id)
