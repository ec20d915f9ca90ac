"""The conversation tree on a PostgreSQL server: :class:`PgConversationStore`.

Implements :class:`storage.store.ConversationStore` with the same behaviour as the SQLite file
(:mod:`storage.sqlite_store`), held to it by the same contract suite. Several processes on
several hosts may share one database: writes are transactions serialised by one advisory lock
(:mod:`storage.pg_database`), and every change is announced with ``NOTIFY``
(:mod:`storage.pg_changes`). Tables: :mod:`storage.pg_schema`.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from storage.audience import Viewer, reader_rows, viewer_key
from storage.codec import (
    MESSAGE_COLUMNS,
    dump_meta,
    new_id,
    now_text,
    parse_status,
    split_status,
    storable_text,
    tool_text,
)
from storage.models import MessageRecord, MessageStatus, Role
from storage.pg_audience import visible_rows_sql
from storage.pg_branches import PgBranchOps
from storage.pg_conversations import PgConversationOps
from storage.pg_database import Conn, PgDatabase
from storage.pg_interchange import PgInterchangeOps
from storage.pg_schema import WRITER_LOCKS
from storage.pg_search import search_messages
from storage.rows import MessageRow, message_rows, row_to_message, text_to_time
from storage.sqlite_store import ROLES
from storage.store import NotFoundError, SearchHit, StorageError
from storage.tree_index import TreeIndex

logger = logging.getLogger(__name__)

_VISIBLE_ROWS = visible_rows_sql(list(MessageRow._fields))


class PgConversationStore(PgConversationOps, PgBranchOps, PgInterchangeOps):
    """The store in the PostgreSQL database at ``url`` (its tables created if missing).

    Raises :class:`storage.store.StorageError` with one sentence if the server cannot be
    reached, refuses the login, or holds a newer schema. Safe to share between threads.
    """

    def __init__(self, url: str, *, pool_size: int | None = None) -> None:
        self._db = PgDatabase(url) if pool_size is None else PgDatabase(url, pool_size=pool_size)
        self.url = url
        self._writer = new_id()
        """This open store, as the writer of the replies it streams (see ``WRITER_LOCKS``)."""
        self._presence = self._db.connect()
        self._presence.execute(
            "SELECT pg_advisory_lock(%s, hashtext(%s))", (WRITER_LOCKS, self._writer)
        )

    @property
    def shown_url(self) -> str:
        """The URL as it may be shown (its password as ``***``)."""
        return self._db.shown

    @property
    def database(self) -> PgDatabase:
        return self._db

    def __enter__(self) -> PgConversationStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._presence.close()  # the writer lock goes with it
        self._db.close()

    # -- messages ------------------------------------------------------------------------

    def add_message(
        self,
        conversation_id: str,
        role: Role,
        content: str,
        parent_id: str | None,
        meta: dict[str, Any] | None = None,
    ) -> MessageRecord:
        if role not in ROLES:
            raise StorageError(f"Unknown message role {role!r}; use one of {', '.join(ROLES)}.")
        rest, status = split_status(meta)
        encoded = dump_meta(rest)
        content = storable_text(content)
        msg_id, now = new_id(), now_text()
        streaming = status == MessageStatus.STREAMING
        with self._db.write() as conn:
            conv = conn.execute(
                "SELECT meta::jsonb ->> 'active_leaf' FROM conversations WHERE id = %s",
                (conversation_id,),
            ).fetchone()
            if conv is None:
                raise NotFoundError(f"No conversation with id {conversation_id}.")
            depth = 0
            if parent_id is not None:
                parent = conn.execute(
                    "SELECT depth FROM messages WHERE id = %s AND conversation_id = %s",
                    (parent_id, conversation_id),
                ).fetchone()
                if parent is None:
                    raise NotFoundError(
                        f"No message {parent_id} in conversation {conversation_id}."
                    )
                depth = int(parent[0]) + 1
            version_row = conn.execute(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM messages "
                "WHERE conversation_id = %s AND parent_id IS NOT DISTINCT FROM %s",
                (conversation_id, parent_id),
            ).fetchone()
            version = int(version_row[0]) if version_row else 1
            conn.execute(
                "INSERT INTO messages (id, conversation_id, role, content, parent_id, depth, "
                "version, status, created_at, meta, tool_text, writer) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    msg_id,
                    conversation_id,
                    role,
                    content,
                    parent_id,
                    depth,
                    version,
                    status,
                    now,
                    encoded,
                    tool_text(rest),
                    self._writer if streaming else None,
                ),
            )
            fast = parent_id is None or conv[0] == parent_id
            self._remember_leaf(conn, conversation_id, msg_id, parent_id, fast=fast)
        return MessageRecord(
            msg_id,
            conversation_id,
            role,
            content,
            parent_id,
            depth,
            version,
            text_to_time(now),
            {**(json.loads(encoded) if rest else {}), "status": status},
        )

    def update_message(
        self,
        message_id: str,
        *,
        content: str | None = None,
        meta: dict[str, Any] | None = None,
        status: MessageStatus | None = None,
    ) -> MessageRecord:
        """Replace content and/or status, and merge ``meta`` keys (``None`` removes a key)."""
        if meta and "status" in meta:
            meta = dict(meta)
            given = meta.pop("status")
            status = parse_status(given) if status is None else status
        assignments = ["writer = %s"]
        params: list[Any] = [self._writer]
        if content is not None:
            assignments.append("content = %s")
            params.append(storable_text(content))
        if status is not None:
            assignments.append("status = %s")
            params.append(parse_status(status).value)
        with self._db.write() if meta else self._db.read() as conn:
            if meta:
                row = conn.execute(
                    "SELECT meta FROM messages WHERE id = %s FOR UPDATE", (message_id,)
                ).fetchone()
                if row is None:
                    raise NotFoundError(f"No message with id {message_id}.")
                merged = {**json.loads(row[0]), **meta}
                merged = {key: value for key, value in merged.items() if value is not None}
                assignments += ["meta = %s", "tool_text = %s"]
                params += [dump_meta(merged), tool_text(merged)]
            rows = conn.execute(
                f"UPDATE messages SET {', '.join(assignments)} WHERE id = %s "
                f"RETURNING {MESSAGE_COLUMNS}",
                (*params, message_id),
            ).fetchall()
        if not rows:
            raise NotFoundError(f"No message with id {message_id}.")
        return row_to_message(rows[0])

    def get_message(self, message_id: str) -> MessageRecord:
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = %s", (message_id,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"No message with id {message_id}.")
        return row_to_message(row)

    def list_messages(self, conversation_id: str) -> list[MessageRecord]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = %s "
                "ORDER BY depth, created_at, seq",
                (conversation_id,),
            ).fetchall()
        return [row_to_message(row) for row in rows]

    def message_rows(self, conversation_id: str, viewer: Viewer = None) -> list[MessageRow]:
        with self._db.read() as conn:
            return self._message_rows(conn, conversation_id, viewer)

    @staticmethod
    def _message_rows(conn: Conn, conversation_id: str, viewer: Viewer = None) -> list[MessageRow]:
        if viewer is not None:
            params = {"conversation": conversation_id, "viewer": viewer_key(viewer)}
            return message_rows(reader_rows(conn.execute(_VISIBLE_ROWS, params)))
        return message_rows(
            conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = %s",
                (conversation_id,),
            )
        )

    def write_mark(self) -> int:
        """The newest record's ``seq``: records commit in ``seq`` order (the write lock)."""
        with self._db.read() as conn:
            row = conn.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()
        return int(row[0]) if row else 0

    def rows_written_after(self, conversation_id: str, mark: int) -> tuple[list[MessageRow], int]:
        with self._db.read() as conn:
            row = conn.execute("SELECT coalesce(max(seq), 0) FROM messages").fetchone()
            newest = int(row[0]) if row else 0
            if newest <= mark:
                return [], mark
            rows = message_rows(
                conn.execute(
                    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = %s"
                    " AND seq > %s AND seq <= %s ORDER BY seq",
                    (conversation_id, mark, newest),
                )
            )
        return rows, newest

    def children(self, message_id: str | None, conversation_id: str) -> list[MessageRecord]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = %s "
                "AND parent_id IS NOT DISTINCT FROM %s ORDER BY version, created_at, seq",
                (conversation_id, message_id),
            ).fetchall()
        return [row_to_message(row) for row in rows]

    def siblings(self, message_id: str) -> list[MessageRecord]:
        record = self.get_message(message_id)
        return self.children(record.parent_id, record.conversation_id)

    def tree_index(self, conversation_id: str, viewer: Viewer = None) -> TreeIndex:
        """The whole tree of a conversation, its remembered choices and active leaf."""
        with self._db.read() as conn:
            meta = self._conversation_meta(conn, conversation_id)
            rows = self._message_rows(conn, conversation_id, viewer)
            choices = {
                str(parent): str(child)
                for parent, child in conn.execute(
                    "SELECT parent_key, child_id FROM branch_choices WHERE conversation_id = %s",
                    (conversation_id,),
                ).fetchall()
            }
        return TreeIndex.from_rows(rows, choices, meta.get("active_leaf"))

    # -- search --------------------------------------------------------------------------

    def search(self, query: str, limit: int = 50, viewer: Viewer = None) -> list[SearchHit]:
        with self._db.read() as conn:
            return search_messages(conn, query, limit, viewer)
