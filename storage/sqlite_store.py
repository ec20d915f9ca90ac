"""The conversation tree in one SQLite file: :class:`SqliteConversationStore`.

Implements :class:`storage.store.ConversationStore`. Every write commits before it returns
(the user's message is on disk before the model is called); a streaming reply is flushed with
:meth:`SqliteConversationStore.update_message`, one small ``UPDATE`` per flush. See
:mod:`storage.schema` for the tables and :mod:`storage.database` for locking and pragmas.

A record's status lives in its own column; records read back always carry it as
``meta["status"]``. A new record's version is one more than the highest version among its
siblings, so after a branch is deleted the remaining versions keep their numbers and a new
sibling never repeats one.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

from storage.accepted_patches import AcceptedPatchOps
from storage.audience import Viewer, reader_rows, viewer_key, visible_rows_sql
from storage.branches import BranchOps
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
from storage.conversations import ConversationOps
from storage.database import BUSY_TIMEOUT_S, Database
from storage.interchange import InterchangeOps
from storage.models import MessageRecord, MessageStatus, Role
from storage.rows import MessageRow, message_rows, row_to_message, text_to_time
from storage.search import search_messages
from storage.store import NotFoundError, SearchHit, StorageError
from storage.tree_index import TreeIndex

logger = logging.getLogger(__name__)

ROLES: tuple[Role, ...] = ("system", "user", "assistant", "tool")
_VISIBLE_ROWS = visible_rows_sql(list(MessageRow._fields))


class SqliteConversationStore(ConversationOps, BranchOps, InterchangeOps, AcceptedPatchOps):
    """The store on ``path`` (created with its folder if missing; migrated if older).

    Raises :class:`storage.store.StorageError` with one sentence if ``path`` is not a usable
    weaver-tui database. Safe to share between threads; several processes may open one file.
    """

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self._db = Database(self.path, busy_timeout_s=busy_timeout_s)

    def __enter__(self) -> SqliteConversationStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
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
        pid = os.getpid() if status == MessageStatus.STREAMING else None
        with self._db.write() as conn:
            conv = conn.execute(
                "SELECT json_extract(meta, '$.active_leaf') FROM conversations WHERE id = ?",
                (conversation_id,),
            ).fetchone()
            if conv is None:
                raise NotFoundError(f"No conversation with id {conversation_id}.")
            depth = 0
            if parent_id is not None:
                parent = conn.execute(
                    "SELECT depth FROM messages WHERE id = ? AND conversation_id = ?",
                    (parent_id, conversation_id),
                ).fetchone()
                if parent is None:
                    raise NotFoundError(
                        f"No message {parent_id} in conversation {conversation_id}."
                    )
                depth = parent[0] + 1
            version = conn.execute(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM messages "
                "WHERE conversation_id = ? AND parent_id IS ?",
                (conversation_id, parent_id),
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO messages (id, conversation_id, role, content, parent_id, depth, "
                "version, status, created_at, meta, tool_text, writer_pid) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    pid,
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
            # As stored (JSON's types: a tuple comes back a list), so the record returned equals
            # the one a later read returns and callers can pass it on instead of reading it.
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
        """Replace content and/or status, and merge ``meta`` keys (``None`` removes a key).

        Without ``meta`` this is one ``UPDATE ... RETURNING`` (the streaming flush).
        """
        if meta and "status" in meta:
            meta = dict(meta)
            given = meta.pop("status")
            status = parse_status(given) if status is None else status
        assignments = ["writer_pid = ?"]
        params: list[Any] = [os.getpid()]
        if content is not None:
            assignments.append("content = ?")
            params.append(storable_text(content))
        if status is not None:
            assignments.append("status = ?")
            params.append(parse_status(status).value)
        with self._db.write() if meta else self._db.read() as conn:
            if meta:
                row = conn.execute(
                    "SELECT meta FROM messages WHERE id = ?", (message_id,)
                ).fetchone()
                if row is None:
                    raise NotFoundError(f"No message with id {message_id}.")
                merged = {**json.loads(row[0]), **meta}
                merged = {key: value for key, value in merged.items() if value is not None}
                assignments += ["meta = ?", "tool_text = ?"]
                params += [dump_meta(merged), tool_text(merged)]
            rows = conn.execute(
                f"UPDATE messages SET {', '.join(assignments)} WHERE id = ? RETURNING {MESSAGE_COLUMNS}",
                (*params, message_id),
            ).fetchall()
        if not rows:
            raise NotFoundError(f"No message with id {message_id}.")
        return row_to_message(rows[0])

    def get_message(self, message_id: str) -> MessageRecord:
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?", (message_id,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"No message with id {message_id}.")
        return row_to_message(row)

    def list_messages(self, conversation_id: str) -> list[MessageRecord]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? "
                "ORDER BY depth, created_at, rowid",
                (conversation_id,),
            ).fetchall()
        return [row_to_message(row) for row in rows]

    def message_rows(self, conversation_id: str, viewer: Viewer = None) -> list[MessageRow]:
        """Every record of the conversation as an undecoded :class:`MessageRow` (in no
        particular order): opening a 10,000-record tree to show one path should not parse
        10,000 meta JSON texts. With a ``viewer``, only what they may read, each hung under
        its nearest visible ancestor (:func:`storage.audience.visible_rows_sql`)."""
        with self._db.read() as conn:
            return self._message_rows(conn, conversation_id, viewer)

    @staticmethod
    def _message_rows(
        conn: sqlite3.Connection, conversation_id: str, viewer: Viewer = None
    ) -> list[MessageRow]:
        if viewer is not None:
            params = {"conversation": conversation_id, "viewer": viewer_key(viewer)}
            return message_rows(reader_rows(conn.execute(_VISIBLE_ROWS, params)))
        return message_rows(
            conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?",
                (conversation_id,),
            )
        )

    def write_mark(self) -> int:
        """The newest record's rowid: SQLite gives each insert a larger one than any so far."""
        with self._db.read() as conn:
            return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM messages").fetchone()[0])

    def rows_written_after(self, conversation_id: str, mark: int) -> tuple[list[MessageRow], int]:
        """Read by rowid range (the table's own key): the cost is the new rows, not the
        conversation's size."""
        with self._db.read() as conn:
            newest = int(conn.execute("SELECT coalesce(max(rowid), 0) FROM messages").fetchone()[0])
            if newest <= mark:
                return [], mark
            rows = message_rows(
                conn.execute(
                    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rowid > ? AND rowid <= ?"
                    " AND conversation_id = ? ORDER BY rowid",
                    (mark, newest, conversation_id),
                )
            )
        return rows, newest

    def children(self, message_id: str | None, conversation_id: str) -> list[MessageRecord]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? "
                "AND parent_id IS ? ORDER BY version, created_at",
                (conversation_id, message_id),
            ).fetchall()
        return [row_to_message(row) for row in rows]

    def siblings(self, message_id: str) -> list[MessageRecord]:
        record = self.get_message(message_id)
        return self.children(record.parent_id, record.conversation_id)

    def tree_index(self, conversation_id: str, viewer: Viewer = None) -> TreeIndex:
        """The whole tree of a conversation, its remembered choices and active leaf, in memory
        (with a ``viewer``: the part they may read, see :meth:`message_rows`)."""
        with self._db.read() as conn:
            meta = self._conversation_meta(conn, conversation_id)
            rows = self._message_rows(conn, conversation_id, viewer)
            choices = dict(
                conn.execute(
                    "SELECT parent_key, child_id FROM branch_choices WHERE conversation_id = ?",
                    (conversation_id,),
                ).fetchall()
            )
        return TreeIndex.from_rows(rows, choices, meta.get("active_leaf"))

    # -- search and interchange ----------------------------------------------------------

    def search(self, query: str, limit: int = 50, viewer: Viewer = None) -> list[SearchHit]:
        with self._db.read() as conn:
            return search_messages(conn, query, limit, viewer)
