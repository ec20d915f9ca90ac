"""Tree navigation on PostgreSQL: paths, the context window, remembered branches, branch
deletion, and replies a dead writer left streaming (a mixin of
:class:`storage.pg_store.PgConversationStore`; the SQLite twin is :mod:`storage.branches`)."""

from __future__ import annotations

import logging
from typing import Any

from storage.audience import Viewer, reader_rows, viewer_key
from storage.codec import MESSAGE_COLUMNS, now_text
from storage.models import MessageRecord
from storage.pg_audience import visible_condition
from storage.pg_database import Conn, PgDatabase
from storage.pg_schema import WRITER_LOCKS
from storage.rows import row_to_message
from storage.store import NotFoundError
from storage.tree_index import ROOT_KEY, trim_context

logger = logging.getLogger(__name__)

_M_COLUMNS = ", ".join(f"m.{name.strip()}" for name in MESSAGE_COLUMNS.split(","))

_UP = """
WITH RECURSIVE up(id, parent_id, n) AS (
    SELECT id, parent_id, 0 FROM messages WHERE id = %(leaf)s
    UNION ALL
    SELECT p.id, p.parent_id, up.n + 1 FROM up JOIN messages p ON p.id = up.parent_id
    WHERE up.n + 1 < %(limit)s
)"""

_PATH_UP = f"""{_UP}
SELECT {_M_COLUMNS} FROM up JOIN messages m ON m.id = up.id ORDER BY up.n DESC
"""

_VISIBLE_PATH_UP = f"""
WITH RECURSIVE up(id, parent_id, n) AS (
    SELECT id, parent_id, 0 FROM messages WHERE id = %(leaf)s
    UNION ALL
    SELECT p.id, p.parent_id, up.n + 1 FROM up JOIN messages p ON p.id = up.parent_id
)
SELECT {_M_COLUMNS} FROM up JOIN messages m ON m.id = up.id
WHERE {visible_condition("m")}
ORDER BY up.n DESC
"""

_TAIL_WITH_VERSIONS = f"""{_UP}
SELECT {_M_COLUMNS},
    (SELECT count(*) FROM messages s
      WHERE s.conversation_id = m.conversation_id
        AND s.parent_id IS NOT DISTINCT FROM m.parent_id
        AND (s.version, s.created_at, s.seq) < (m.version, m.created_at, m.seq)),
    (SELECT count(*) FROM messages s
      WHERE s.conversation_id = m.conversation_id
        AND s.parent_id IS NOT DISTINCT FROM m.parent_id)
FROM up JOIN messages m ON m.id = up.id ORDER BY up.n DESC
"""

_DESCEND = """
WITH RECURSIVE down(id, n) AS (
    SELECT %(start)s::text, 0
    UNION ALL
    SELECT COALESCE(
        (SELECT b.child_id FROM branch_choices b
          WHERE b.conversation_id = %(conversation)s AND b.parent_key = down.id),
        (SELECT m.id FROM messages m
          WHERE m.conversation_id = %(conversation)s AND m.parent_id = down.id
          ORDER BY m.version DESC LIMIT 1)),
        down.n + 1
    FROM down WHERE down.id IS NOT NULL
)
SELECT id FROM down WHERE id IS NOT NULL ORDER BY n DESC LIMIT 1
"""

_REMEMBER_PATH = """
WITH RECURSIVE up(id, parent_id) AS (
    SELECT id, parent_id FROM messages WHERE id = %(leaf)s
    UNION ALL
    SELECT p.id, p.parent_id FROM up JOIN messages p ON p.id = up.parent_id
)
INSERT INTO branch_choices (conversation_id, parent_key, child_id)
SELECT %(conversation)s, COALESCE(parent_id, ''), id FROM up
ON CONFLICT (conversation_id, parent_key) DO UPDATE SET child_id = excluded.child_id
WHERE branch_choices.child_id IS DISTINCT FROM excluded.child_id
"""

_SUBTREE = """
WITH RECURSIVE sub(id) AS (
    SELECT %(start)s::text
    UNION ALL
    SELECT m.id FROM messages m JOIN sub ON m.parent_id = sub.id
)
"""

_NO_LIMIT = 1 << 62


class PgBranchOps:
    """Paths, context windows, remembered branches and branch deletion (mixin)."""

    _db: PgDatabase

    def get_message(self, message_id: str) -> MessageRecord:  # provided by the store
        raise NotImplementedError

    def path_to_root(self, message_id: str, viewer: Viewer = None) -> list[MessageRecord]:
        with self._db.read() as conn:
            if viewer is None:
                rows = conn.execute(_PATH_UP, {"leaf": message_id, "limit": _NO_LIMIT}).fetchall()
            else:
                rows = conn.execute(
                    _VISIBLE_PATH_UP, {"leaf": message_id, "viewer": viewer_key(viewer)}
                ).fetchall()
                exists = (
                    rows
                    or conn.execute(
                        "SELECT 1 FROM messages WHERE id = %s", (message_id,)
                    ).fetchone()
                )
                if exists:
                    return [row_to_message(row) for row in reader_rows(rows)]
        if not rows:
            raise NotFoundError(f"No message with id {message_id}.")
        return [row_to_message(row) for row in rows]

    def path_tail(self, leaf_id: str, limit: int) -> list[tuple[MessageRecord, int, int]]:
        with self._db.read() as conn:
            rows = conn.execute(_TAIL_WITH_VERSIONS, {"leaf": leaf_id, "limit": limit}).fetchall()
        if not rows:
            raise NotFoundError(f"No message with id {leaf_id}.")
        return [(row_to_message(row[:-2]), int(row[-2]) + 1, int(row[-1])) for row in rows]

    def context_window(self, leaf_id: str, limit: int = 20) -> list[MessageRecord]:
        steps = max(limit, 1) * 2 + 8
        with self._db.read() as conn:
            while True:
                rows = conn.execute(_PATH_UP, {"leaf": leaf_id, "limit": steps}).fetchall()
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
                "SELECT conversation_id FROM messages WHERE id = %s", (message_id,)
            ).fetchone()
            if row is None or row[0] != conversation_id:
                raise NotFoundError(f"No message {message_id} in conversation {conversation_id}.")
            self._remember_leaf(conn, conversation_id, message_id, touch=False)

    def active_leaf(self, conversation_id: str) -> MessageRecord | None:
        with self._db.read() as conn:
            row = conn.execute(
                "SELECT meta::jsonb ->> 'active_leaf' FROM conversations WHERE id = %s",
                (conversation_id,),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"No conversation with id {conversation_id}.")
            leaf_id: str | None = row[0]
            found = (
                leaf_id
                and conn.execute(
                    "SELECT 1 FROM messages WHERE id = %s AND conversation_id = %s",
                    (leaf_id, conversation_id),
                ).fetchone()
            )
            if not found:
                leaf_id = self._leaf_under(conn, conversation_id, None)
        return None if leaf_id is None else self.get_message(leaf_id)

    def delete_branch(self, message_id: str) -> None:
        with self._db.write() as conn:
            row = conn.execute(
                "SELECT conversation_id, parent_id FROM messages WHERE id = %s", (message_id,)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"No message with id {message_id}.")
            conv_id, parent_id = row
            active_row = conn.execute(
                "SELECT meta::jsonb ->> 'active_leaf' FROM conversations WHERE id = %s",
                (conv_id,),
            ).fetchone()
            active = active_row[0] if active_row else None
            hit_active = active is None or bool(
                conn.execute(
                    _SUBTREE + "SELECT 1 FROM sub WHERE id = %(active)s",
                    {"start": message_id, "active": active},
                ).fetchone()
            )
            deleted = conn.execute(
                _SUBTREE + "DELETE FROM messages WHERE id IN (SELECT id FROM sub)",
                {"start": message_id},
            ).rowcount
            if hit_active:
                leaf = self._leaf_under(conn, conv_id, parent_id)
                if leaf is None:
                    conn.execute(
                        "UPDATE conversations SET meta = (meta::jsonb - 'active_leaf')::text, "
                        "updated_at = %s WHERE id = %s",
                        (now_text(), conv_id),
                    )
                else:
                    self._remember_leaf(conn, conv_id, leaf)
        logger.info("deleted branch %s (%d records) of %s", message_id, deleted, conv_id)

    def mark_interrupted_replies(self, conversation_id: str | None = None) -> list[str]:
        """Mark replies left ``streaming`` by a writer that died as cancelled + interrupted.

        A reply is still being written while its writer (an open store, in any process on any
        host) holds its writer lock; the server frees the lock when the writer's connection
        ends, however the process ended. Returns the ids marked.
        """
        sql = (
            "SELECT id, writer IS NOT NULL AND NOT pg_try_advisory_lock(%s, hashtext(writer)),"
            " writer FROM messages WHERE status = 'streaming'"
        )
        params: tuple[Any, ...] = (WRITER_LOCKS,)
        if conversation_id is not None:
            sql += " AND conversation_id = %s"
            params += (conversation_id,)
        with self._db.write() as conn:
            ids: list[str] = []
            for mid, alive, writer in conn.execute(sql, params).fetchall():
                if writer is not None and not alive:  # taken by the probe: give it back
                    conn.execute(
                        "SELECT pg_advisory_unlock(%s, hashtext(%s))", (WRITER_LOCKS, writer)
                    )
                if not alive:
                    ids.append(mid)
            for mid in ids:
                conn.execute(
                    "UPDATE messages SET status = 'cancelled', writer = NULL, "
                    "meta = jsonb_set(meta::jsonb, '{interrupted}', 'true')::text WHERE id = %s",
                    (mid,),
                )
        if ids:
            logger.info("marked %d interrupted replies as cancelled", len(ids))
        return ids

    # -- helpers (called inside a transaction) ---------------------------------------------

    def _remember_leaf(
        self,
        conn: Conn,
        conversation_id: str,
        leaf_id: str,
        parent_id: str | None = None,
        *,
        fast: bool = False,
        touch: bool = True,
    ) -> None:
        if fast:
            conn.execute(
                "INSERT INTO branch_choices (conversation_id, parent_key, child_id) "
                "VALUES (%s, %s, %s) ON CONFLICT (conversation_id, parent_key) "
                "DO UPDATE SET child_id = excluded.child_id",
                (conversation_id, parent_id or ROOT_KEY, leaf_id),
            )
        else:
            conn.execute(_REMEMBER_PATH, {"conversation": conversation_id, "leaf": leaf_id})
        conn.execute(
            "UPDATE conversations SET meta = jsonb_set(meta::jsonb, '{active_leaf}', "
            "to_jsonb(%(leaf)s::text))::text, "
            "updated_at = coalesce(%(now)s, updated_at) WHERE id = %(conversation)s",
            {
                "leaf": leaf_id,
                "now": now_text() if touch else None,
                "conversation": conversation_id,
            },
        )

    def _descend(self, conn: Conn, conversation_id: str, start_id: str) -> str:
        row = conn.execute(
            _DESCEND, {"start": start_id, "conversation": conversation_id}
        ).fetchone()
        return str(row[0]) if row else start_id

    def _leaf_under(self, conn: Conn, conversation_id: str, parent_id: str | None) -> str | None:
        if parent_id is not None:
            return self._descend(conn, conversation_id, parent_id)
        row = conn.execute(
            "SELECT COALESCE((SELECT child_id FROM branch_choices WHERE conversation_id = %(c)s "
            "AND parent_key = ''), (SELECT id FROM messages WHERE conversation_id = %(c)s AND "
            "parent_id IS NULL ORDER BY version DESC LIMIT 1))",
            {"c": conversation_id},
        ).fetchone()
        return (
            None if row is None or row[0] is None else self._descend(conn, conversation_id, row[0])
        )
