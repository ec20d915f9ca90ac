"""Patches this user accepted on this machine: the only ones undo and redo may write back.

A tool record's meta says how a patch stands (``patch_status``, ``patch_edit``), but meta is
data: an export carries it and an import could bring any of it. Whether a patch was accepted
here is a row of ``accepted_patches``, written when the review records the user's "accept"
(:meth:`AcceptedPatchOps.accept_patch`), copied with its record when a branch is copied into
a new conversation, deleted with the record. Export never writes these rows and import never
creates one, so a patch record from a file is history, never something to revert or redo. A row counts
only when its MAC verifies under this user's key (:mod:`storage.authority`), so a store file
copied from elsewhere or crafted carries no acceptance either.

A row keeps the file and the two hashes the user accepted; rewind acts on a record only when
its edit names the same file and hashes (:meth:`storage.models.AcceptedPatch.matches`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from storage.authority import ACCEPTED_PATCH, sign, verifies
from storage.models import AcceptedPatch

if TYPE_CHECKING:
    from storage.database import Database

logger = logging.getLogger(__name__)


PATCH_COLUMNS = (
    "record_id, conversation_id, patch_id, file, base_sha256, new_sha256, accepted_at, mac"
)
"""Every column of ``accepted_patches`` in the order the MAC covers them (the MAC last); both
backends read and sign rows in this order."""
_COLUMNS = PATCH_COLUMNS


def verified_patch(row: Sequence[str | None]) -> AcceptedPatch | None:
    """The accepted patch of a row read as :data:`PATCH_COLUMNS`, or None when its MAC does
    not cover every other column under this user's key (the row is history, not authority)."""
    if not verifies(ACCEPTED_PATCH, row[:-1], row[-1]):
        return None
    record_id, _, patch_id, file, base, new = row[:6]
    if record_id is None or patch_id is None or file is None or new is None:
        return None
    return AcceptedPatch(record_id, patch_id, file, base, new)


def _verified(row: Sequence[str | None]) -> bool:
    return verified_patch(row) is not None


class AcceptedPatchOps:
    """Accepted-patch methods of :class:`storage.sqlite_store.SqliteConversationStore`.

    Only rows whose MAC verifies are returned (see :mod:`storage.authority`): a row from
    another machine or user, edited, moved to another record or without a MAC is history."""

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
        accepted_at = datetime.now(UTC).isoformat()
        with self._db.write() as conn:
            found = conn.execute(
                "SELECT conversation_id FROM messages WHERE id = ?", (record_id,)
            ).fetchone()
            if found is None:
                return
            fields = (record_id, found[0], patch_id, path, base_sha256, new_sha256, accepted_at)
            conn.execute(
                "INSERT OR REPLACE INTO accepted_patches (record_id, conversation_id, patch_id, "
                "file, base_sha256, new_sha256, accepted_at, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (*fields, sign(ACCEPTED_PATCH, fields)),
            )
        logger.info("patch accepted", extra={"patch": patch_id, "record": record_id})

    def accepted_patches(self, record_ids: Sequence[str]) -> dict[str, AcceptedPatch]:
        """Record id -> its accepted patch, for those of ``record_ids`` that have one made by
        this user here (its MAC verifies)."""
        found: dict[str, AcceptedPatch] = {}
        with self._db.read() as conn:
            for start in range(0, len(record_ids), 500):
                chunk = list(record_ids[start : start + 500])
                marks = ", ".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT {_COLUMNS} FROM accepted_patches WHERE record_id IN ({marks})", chunk
                )
                for row in rows:
                    patch = verified_patch(row)
                    if patch is not None:
                        found[patch.record_id] = patch
        return found

    def copy_accepted_patches(self, copies: Mapping[str, str]) -> None:
        """Carry the acceptances of records (old id -> new id) to their copies: a branch
        copied into a new conversation keeps its undo. The copy is the user's act here, so
        each copy is signed anew, and only for rows that verified."""
        with self._db.write() as conn:
            for old_id, new_id in copies.items():
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM accepted_patches WHERE record_id = ?", (old_id,)
                ).fetchone()
                target = conn.execute(
                    "SELECT conversation_id FROM messages WHERE id = ?", (new_id,)
                ).fetchone()
                if row is None or target is None or not _verified(row):
                    continue
                fields = (new_id, target[0], *row[2:7])
                conn.execute(
                    "INSERT OR REPLACE INTO accepted_patches (record_id, conversation_id, "
                    "patch_id, file, base_sha256, new_sha256, accepted_at, mac) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (*fields, sign(ACCEPTED_PATCH, fields)),
                )
