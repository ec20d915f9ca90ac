"""Tree navigation on SQLite: paths, the context window, remembered branches, branch deletion.

A mixin of :class:`storage.sqlite_store.SqliteConversationStore` (it needs ``self._db``),
kept in its own file because these are the recursive-CTE queries of the tree.
"""

from __future__ import annotations

import logging
import os
import sqlite3

from storage.audience import Viewer, reader_rows, viewer_key, visible_condition
from storage.codec import MESSAGE_COLUMNS, now_text
from storage.database import Database
from storage.models import MessageRecord
from storage.rows import row_to_message
from storage.store import NotFoundError
from storage.tree_index import ROOT_KEY, trim_context

logger = logging.getLogger(__name__)

_M_COLUMNS = ", ".join(f"m.{name.strip()}" for name in MESSAGE_COLUMNS.split(","))

_UP = """
WITH RECURSIVE up(id, parent_id, n) AS (
    SELECT id, parent_id, 0 FROM messages WHERE id = ?1
    UNION ALL
    SELECT p.id, p.parent_id, up.n + 1 FROM up JOIN messages p ON p.id = up.parent_id
    WHERE up.n + 1 < ?2
)"""
"""The path from ``?1`` up, at most ``?2`` records, ``n`` steps from ``?1``."""

_PATH_UP = f"""{_UP}
SELECT {_M_COLUMNS} FROM up JOIN messages m ON m.id = up.id ORDER BY up.n DESC
"""

_VISIBLE_PATH_UP = f"""
WITH RECURSIVE up(id, parent_id, n) AS (
    SELECT id, parent_id, 0 FROM messages WHERE id = :leaf
    UNION ALL
    SELECT p.id, p.parent_id, up.n + 1 FROM up JOIN messages p ON p.id = up.parent_id
)
SELECT {_M_COLUMNS} FROM up JOIN messages m ON m.id = up.id
WHERE {visible_condition("m")}
ORDER BY up.n DESC
"""
"""The records of the path up from ``:leaf`` that ``:viewer`` may read, root first."""

_TAIL_WITH_VERSIONS = f"""{_UP}
SELECT {_M_COLUMNS},
    (SELECT COUNT(*) FROM messages s
      WHERE s.conversation_id = m.conversation_id AND s.parent_id IS m.parent_id
        AND (s.version, s.created_at, s.rowid) < (m.version, m.created_at, m.rowid)),
    (SELECT COUNT(*) FROM messages s
      WHERE s.conversation_id = m.conversation_id AND s.parent_id IS m.parent_id)
FROM up JOIN messages m ON m.id = up.id ORDER BY up.n DESC
"""
"""The last ``?2`` records of a path, each with how many siblings come before it (in version,
then creation order) and how many it has."""

_DESCEND = """
WITH RECURSIVE down(id, n) AS (
    SELECT ?1, 0
    UNION ALL
    SELECT COALESCE(
        (SELECT b.child_id FROM branch_choices b
          WHERE b.conversation_id = ?2 AND b.parent_key = down.id),
        (SELECT m.id FROM messages m
          WHERE m.conversation_id = ?2 AND m.parent_id = down.id
          ORDER BY m.version DESC LIMIT 1)),
        down.n + 1
    FROM down WHERE down.id IS NOT NULL
)
SELECT id FROM down WHERE id IS NOT NULL ORDER BY n DESC LIMIT 1
"""

_REMEMBER_PATH = """
WITH RECURSIVE up(id, parent_id) AS (
    SELECT id, parent_id FROM messages WHERE id = ?2
    UNION ALL
    SELECT p.id, p.parent_id FROM up JOIN messages p ON p.id = up.parent_id
)
INSERT INTO branch_choices (conversation_id, parent_key, child_id)
SELECT ?1, COALESCE(parent_id, ''), id FROM up WHERE true
ON CONFLICT (conversation_id, parent_key) DO UPDATE SET child_id = excluded.child_id
WHERE child_id IS NOT excluded.child_id
"""
"""Only the forks whose choice changed are written: a 2,000-deep path whose choices are
already recorded costs its lookups, not 2,000 row rewrites (a third of the time)."""

_SUBTREE = """
WITH RECURSIVE sub(id) AS (
    SELECT ?1
    UNION ALL
    SELECT m.id FROM messages m JOIN sub ON m.parent_id = sub.id
)
"""

_NO_LIMIT = 1 << 62


class BranchOps:
    """Paths, context windows, remembered branches and branch deletion (mixin)."""

    _db: Database

    def get_message(self, message_id: str) -> MessageRecord:  # provided by the store
        raise NotImplementedError

    def path_to_root(self, message_id: str, viewer: Viewer = None) -> list[MessageRecord]:
        """Root first; with a ``viewer``, only the records of the path they may read."""
        with self._db.read() as conn:
            if viewer is None:
                rows = conn.execute(_PATH_UP, (message_id, _NO_LIMIT)).fetchall()
            else:
                rows = conn.execute(
                    _VISIBLE_PATH_UP, {"leaf": message_id, "viewer": viewer_key(viewer)}
                ).fetchall()
                exists = (
                    rows
                    or conn.execute("SELECT 1 FROM messages WHERE id = ?", (message_id,)).fetchone()
                )
                if exists:
                    return [row_to_message(row) for row in reader_rows(rows)]
        if not rows:
            raise NotFoundError(f"No message with id {message_id}.")
        return [row_to_message(row) for row in rows]

    def path_tail(self, leaf_id: str, limit: int) -> list[tuple[MessageRecord, int, int]]:
        with self._db.read() as conn:
            rows = conn.execute(_TAIL_WITH_VERSIONS, (leaf_id, limit)).fetchall()
        if not rows:
            raise NotFoundError(f"No message with id {leaf_id}.")
        return [(row_to_message(row[:-2]), row[-2] + 1, row[-1]) for row in rows]

    def context_window(self, leaf_id: str, limit: int = 20) -> list[MessageRecord]:
        # Walk up only as far as needed: a few more steps than ``limit`` covers the system
        # records; if not, walk further.
        steps = max(limit, 1) * 2 + 8
        with self._db.read() as conn:
            while True:
                rows = conn.execute(_PATH_UP, (leaf_id, steps)).fetchall()
                if not rows:
                    raise NotFoundError(f"No message with id {leaf_id}.")
                path = [row_to_message(row) for row in rows]
                usable = sum(1 for record in path if record.role != "system")
                if usable >= limit or len(rows) < steps:
                    break
                steps *= 4
        return trim_context(path, limit)

    def latest_leaf(self, message_id: str) -> MessageRecord:
        record = self.get_message(message_id)
        with self._db.read() as conn:
            leaf_id = self._descend(conn, record.conversation_id, record.id)
        return record if leaf_id == record.id else self.get_message(leaf_id)

    def set_active_leaf(self, conversation_id: str, message_id: str) -> None:
        with self._db.write() as conn:
            row = conn.execute(
                "SELECT conversation_id FROM messages WHERE id = ?", (message_id,)
            ).fetchone()
            if row is None or row[0] != conversation_id:
                raise NotFoundError(f"No message {message_id} in conversation {conversation_id}.")
            self._remember_leaf(conn, conversation_id, message_id, touch=False)

    def active_leaf(self, conversation_id: str) -> MessageRecord | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT json_extract(meta, '$.active_leaf') FROM conversations WHERE id = ?",
                (conversation_id,),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"No conversation with id {conversation_id}.")
            leaf_id = row[0]
            found = (
                leaf_id
                and conn.execute(
                    "SELECT 1 FROM messages WHERE id = ? AND conversation_id = ?",
                    (leaf_id, conversation_id),
                ).fetchone()
            )
            if not found:
                leaf_id = self._leaf_under(conn, conversation_id, None)
        return None if leaf_id is None else self.get_message(leaf_id)

    def delete_branch(self, message_id: str) -> None:
        with self._db.write() as conn:
            row = conn.execute(
                "SELECT conversation_id, parent_id FROM messages WHERE id = ?", (message_id,)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"No message with id {message_id}.")
            conv_id, parent_id = row
            active = conn.execute(
                "SELECT json_extract(meta, '$.active_leaf') FROM conversations WHERE id = ?",
                (conv_id,),
            ).fetchone()[0]
            hit_active = active is None or bool(
                conn.execute(
                    _SUBTREE + "SELECT 1 FROM sub WHERE id = ?2", (message_id, active)
                ).fetchone()
            )
            deleted = conn.execute(
                _SUBTREE + "DELETE FROM messages WHERE id IN sub", (message_id,)
            ).rowcount
            if hit_active:
                leaf = self._leaf_under(conn, conv_id, parent_id)
                if leaf is None:
                    conn.execute(
                        "UPDATE conversations SET meta = json_remove(meta, '$.active_leaf'), "
                        "updated_at = ? WHERE id = ?",
                        (now_text(), conv_id),
                    )
                else:
                    self._remember_leaf(conn, conv_id, leaf)
        logger.info("deleted branch %s (%d records) of %s", message_id, deleted, conv_id)

    def mark_interrupted_replies(self, conversation_id: str | None = None) -> list[str]:
        """Mark replies left ``streaming`` by a process that died as cancelled + interrupted.

        Call on open. A reply another live process is still streaming (``writer_pid``) is
        left alone. Returns the ids marked.
        """
        sql = "SELECT id, writer_pid FROM messages WHERE status = 'streaming'"
        params: tuple[str, ...] = ()
        if conversation_id is not None:
            sql += " AND conversation_id = ?"
            params = (conversation_id,)
        with self._db.write() as conn:
            ids = [mid for mid, pid in conn.execute(sql, params).fetchall() if not _alive(pid)]
            conn.executemany(
                "UPDATE messages SET status = 'cancelled', writer_pid = NULL, "
                "meta = json_set(meta, '$.interrupted', json('true')) WHERE id = ?",
                [(mid,) for mid in ids],
            )
        if ids:
            logger.info("marked %d interrupted replies as cancelled", len(ids))
        return ids

    # -- helpers (called inside a transaction) ---------------------------------------------

    def _remember_leaf(
        self,
        conn: sqlite3.Connection,
        conversation_id: str,
        leaf_id: str,
        parent_id: str | None = None,
        *,
        fast: bool = False,
        touch: bool = True,
    ) -> None:
        """Store ``leaf_id`` as the active leaf and the chosen child on every fork of its path.

        ``fast``: the leaf's parent was the active leaf, so the choices above it are already
        recorded and only the parent's choice changes (the common case: one more message).
        ``touch``: the conversation changed (bump ``updated_at``); moving between branches
        alone does not reorder the conversation list.
        """
        if fast:
            conn.execute(
                "INSERT INTO branch_choices (conversation_id, parent_key, child_id) VALUES (?, ?, ?) "
                "ON CONFLICT (conversation_id, parent_key) DO UPDATE SET child_id = excluded.child_id",
                (conversation_id, parent_id or ROOT_KEY, leaf_id),
            )
        else:
            conn.execute(_REMEMBER_PATH, (conversation_id, leaf_id))
        conn.execute(
            "UPDATE conversations SET meta = json_set(meta, '$.active_leaf', ?1), "
            "updated_at = CASE WHEN ?2 IS NULL THEN updated_at ELSE ?2 END WHERE id = ?3",
            (leaf_id, now_text() if touch else None, conversation_id),
        )

    def _descend(self, conn: sqlite3.Connection, conversation_id: str, start_id: str) -> str:
        leaf: str = conn.execute(_DESCEND, (start_id, conversation_id)).fetchone()[0]
        return leaf

    def _leaf_under(
        self, conn: sqlite3.Connection, conversation_id: str, parent_id: str | None
    ) -> str | None:
        """The remembered leaf below ``parent_id`` (the roots for ``None``); else the parent."""
        if parent_id is not None:
            return self._descend(conn, conversation_id, parent_id)
        row = conn.execute(
            "SELECT COALESCE((SELECT child_id FROM branch_choices WHERE conversation_id = ?1 "
            "AND parent_key = ''), (SELECT id FROM messages WHERE conversation_id = ?1 AND "
            "parent_id IS NULL ORDER BY version DESC LIMIT 1))",
            (conversation_id,),
        ).fetchone()
        return None if row[0] is None else self._descend(conn, conversation_id, row[0])


def _alive(pid: int | None) -> bool:
    """Whether another process ``pid`` is running (our own pid counts as dead: a leftover)."""
    if pid is None or pid == os.getpid() or os.name == "nt":
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
