"""Export, import, accepted patches and the raw reads they need, on PostgreSQL (a mixin of
:class:`storage.pg_store.PgConversationStore`; the SQLite twins are
:mod:`storage.interchange` and :mod:`storage.accepted_patches`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from storage.accepted_patches import PATCH_COLUMNS, verified_patch
from storage.authority import ACCEPTED_PATCH, sign
from storage.codec import (
    CONVERSATION_COLUMNS,
    dump_meta,
    split_status,
    storable_text,
    time_to_text,
    tool_text,
)
from storage.export import to_markdown, write_jsonl
from storage.importer import read_jsonl
from storage.models import AcceptedPatch, Conversation, MessageRecord
from storage.pg_database import PgDatabase
from storage.printable import printable_title

if TYPE_CHECKING:
    from storage.audience import Viewer
    from storage.rows import MessageRow
    from storage.tree_index import TreeIndex

logger = logging.getLogger(__name__)

_PATCH_INSERT = (
    f"INSERT INTO accepted_patches ({PATCH_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (record_id) DO UPDATE SET conversation_id = excluded.conversation_id,"
    " patch_id = excluded.patch_id, file = excluded.file, base_sha256 = excluded.base_sha256,"
    " new_sha256 = excluded.new_sha256, accepted_at = excluded.accepted_at, mac = excluded.mac"
)
"""Writes one signed row (see :mod:`storage.authority`); a row replaced is signed anew."""


class PgInterchangeOps:
    """Export/import and accepted-patch methods of the PostgreSQL store."""

    _db: PgDatabase

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
        with self._db.read() as conn:
            rows = conn.execute("SELECT id FROM messages WHERE id = ANY(%s)", (list(ids),))
            return {str(row[0]) for row in rows}

    def branch_choices(self, conversation_id: str) -> dict[str, str]:
        """Parent id (``''`` for the roots) -> the child chosen there last."""
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT parent_key, child_id FROM branch_choices WHERE conversation_id = %s",
                (conversation_id,),
            ).fetchall()
        return {str(parent): str(child) for parent, child in rows}

    def import_tree(
        self,
        conversation: Conversation,
        records: list[MessageRecord],
        choices: dict[str, str],
    ) -> Conversation:
        """Insert a whole conversation as given (ids, versions, times) in one transaction."""
        with self._db.write() as conn:
            conn.execute(
                f"INSERT INTO conversations ({CONVERSATION_COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
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
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO messages (id, conversation_id, role, content, parent_id, depth, "
                    "version, status, created_at, meta, tool_text) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    rows,
                )
                cursor.executemany(
                    "INSERT INTO branch_choices (conversation_id, parent_key, child_id) "
                    "VALUES (%s, %s, %s)",
                    [(conversation.id, parent, child) for parent, child in choices.items()],
                )
        logger.info("imported conversation %s (%d records)", conversation.id, len(records))
        return self.get_conversation(conversation.id)

    # -- patches accepted here (see storage.accepted_patches) -------------------------------

    def accept_patch(
        self,
        record_id: str,
        patch_id: str,
        path: str,
        base_sha256: str | None,
        new_sha256: str,
    ) -> None:
        accepted_at = datetime.now(UTC).isoformat()
        with self._db.write() as conn:
            found = conn.execute(
                "SELECT conversation_id FROM messages WHERE id = %s", (record_id,)
            ).fetchone()
            if found is None:
                return
            fields = (record_id, found[0], patch_id, path, base_sha256, new_sha256, accepted_at)
            conn.execute(_PATCH_INSERT, (*fields, sign(ACCEPTED_PATCH, fields)))
        logger.info("patch accepted", extra={"patch": patch_id, "record": record_id})

    def accepted_patches(self, record_ids: Sequence[str]) -> dict[str, AcceptedPatch]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {PATCH_COLUMNS} FROM accepted_patches WHERE record_id = ANY(%s)",
                (list(record_ids),),
            ).fetchall()
        found = (verified_patch(row) for row in rows)
        return {patch.record_id: patch for patch in found if patch is not None}

    def copy_accepted_patches(self, copies: Mapping[str, str]) -> None:
        with self._db.write() as conn:
            for old_id, new_id in copies.items():
                row = conn.execute(
                    f"SELECT {PATCH_COLUMNS} FROM accepted_patches WHERE record_id = %s",
                    (old_id,),
                ).fetchone()
                target = conn.execute(
                    "SELECT conversation_id FROM messages WHERE id = %s", (new_id,)
                ).fetchone()
                if row is None or target is None or verified_patch(row) is None:
                    continue
                fields = (new_id, target[0], *row[2:7])
                conn.execute(_PATCH_INSERT, (*fields, sign(ACCEPTED_PATCH, fields)))
