"""Patches this user accepted on this machine: the only ones undo and redo may write back.

A tool record's meta says how a patch stands (``patch_status``, ``patch_edit``), but meta is
data: an export carries it and an import could bring any of it. Whether a patch was accepted
here is a row of ``accepted_patches``, written when the review records the user's "accept"
(:meth:`AcceptedPatchOps.accept_patch`), copied with its record when a branch is copied into
a new conversation, deleted with the record. Export never writes these rows and import never
creates one, so a patch record from a file is history, never something to revert or redo.

A row keeps the file and the two hashes the user accepted; rewind acts on a record only when
its edit names the same file and hashes (:meth:`storage.models.AcceptedPatch.matches`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from storage.models import AcceptedPatch

if TYPE_CHECKING:
    from storage.database import Database

logger = logging.getLogger(__name__)


_COLUMNS = "record_id, patch_id, file, base_sha256, new_sha256"


class AcceptedPatchOps:
    """Accepted-patch methods of :class:`storage.sqlite_store.SqliteConversationStore`."""

    _db: Database

    def accept_patch(
        self,
        record_id: str,
        patch_id: str,
        path: str,
        base_sha256: str | None,
        new_sha256: str,
    ) -> None:
        """Record that the user accepted the patch kept on tool record ``record_id``."""
        with self._db.write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO accepted_patches (record_id, conversation_id, patch_id, "
                "file, base_sha256, new_sha256, accepted_at) SELECT id, conversation_id, ?, ?, "
                "?, ?, ? FROM messages WHERE id = ?",
                (
                    patch_id,
                    path,
                    base_sha256,
                    new_sha256,
                    datetime.now(UTC).isoformat(),
                    record_id,
                ),
            )
        logger.info("patch accepted", extra={"patch": patch_id, "record": record_id})

    def accepted_patches(self, record_ids: Sequence[str]) -> dict[str, AcceptedPatch]:
        """Record id -> its accepted patch, for those of ``record_ids`` that have one."""
        found: dict[str, AcceptedPatch] = {}
        with self._db.read() as conn:
            for start in range(0, len(record_ids), 500):
                chunk = list(record_ids[start : start + 500])
                marks = ", ".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT {_COLUMNS} FROM accepted_patches WHERE record_id IN ({marks})", chunk
                )
                for row in rows:
                    found[row[0]] = AcceptedPatch(*row)
        return found

    def copy_accepted_patches(self, copies: Mapping[str, str]) -> None:
        """Carry the acceptances of records (old id -> new id) to their copies: a branch
        copied into a new conversation keeps its undo."""
        with self._db.write() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO accepted_patches (record_id, conversation_id, patch_id, "
                "file, base_sha256, new_sha256, accepted_at) SELECT m.id, m.conversation_id, "
                "a.patch_id, a.file, a.base_sha256, a.new_sha256, a.accepted_at "
                "FROM accepted_patches a, messages m WHERE a.record_id = ? AND m.id = ?",
                list(copies.items()),
            )
