"""Conversation rows: create, list, rename, meta, delete (a mixin of the SQLite store)."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from storage.codec import (
    CONVERSATION_COLUMNS,
    dump_meta,
    new_id,
    now_text,
    row_to_conversation,
)
from storage.database import Database
from storage.models import Conversation
from storage.printable import printable_title
from storage.rows import text_to_time
from storage.store import NotFoundError

logger = logging.getLogger(__name__)


PROMPT_HISTORY_CHARS = 20_000
"""The longest message the composer's history recalls."""


class ConversationOps:
    """The conversation half of :class:`storage.sqlite_store.SqliteConversationStore`."""

    _db: Database

    def create_conversation(
        self, profile: str, title: str = "New conversation", meta: dict[str, Any] | None = None
    ) -> Conversation:
        conv_id, now, title = new_id(), now_text(), printable_title(title)
        with self._db.write() as conn:
            conn.execute(
                f"INSERT INTO conversations ({CONVERSATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (conv_id, title, profile, now, now, dump_meta(meta)),
            )
        logger.info("created conversation %s (%s)", conv_id, profile)
        return Conversation(
            conv_id, title, profile, text_to_time(now), text_to_time(now), dict(meta or {})
        )

    def get_conversation(self, conversation_id: str) -> Conversation:
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {CONVERSATION_COLUMNS} FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"No conversation with id {conversation_id}.")
        return row_to_conversation(row)

    def list_conversations(
        self, profile: str | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[Conversation]:
        sql = f"SELECT {CONVERSATION_COLUMNS} FROM conversations"
        params: tuple[str | int, ...] = ()
        if profile is not None:
            sql, params = sql + " WHERE profile = ?", (profile,)
        sql += " ORDER BY updated_at DESC, rowid DESC"
        if limit is not None or offset:
            sql, params = (
                sql + " LIMIT ? OFFSET ?",
                (*params, -1 if limit is None else limit, offset),
            )
        with self._db.read() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [row_to_conversation(row) for row in rows]

    def count_conversations(self, profile: str | None = None) -> int:
        sql = "SELECT count(*) FROM conversations"
        params: tuple[str, ...] = ()
        if profile is not None:
            sql, params = sql + " WHERE profile = ?", (profile,)
        with self._db.read() as conn:
            return int(conn.execute(sql, params).fetchone()[0])

    def recent_prompts(self, profile: str, limit: int = 200) -> list[str]:
        """The user's last ``limit`` distinct messages to ``profile``, newest first (a message
        longer than :data:`PROMPT_HISTORY_CHARS` is left out: history is for prompts)."""
        sql = (
            "SELECT m.content FROM messages AS m INDEXED BY messages_user_by_time"
            " JOIN conversations AS c ON c.id = m.conversation_id"
            " WHERE m.role = 'user' AND c.profile = ? AND length(m.content) <= ?"
            " ORDER BY m.created_at DESC LIMIT ?"
        )
        seen: dict[str, None] = {}
        with self._db.read() as conn:
            for (content,) in conn.execute(sql, (profile, PROMPT_HISTORY_CHARS, limit * 4)):
                if content.strip():
                    seen.setdefault(content, None)
                if len(seen) >= limit:
                    break
        return list(seen)

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        self._update_conversation(conversation_id, "title = ?", (printable_title(title),))
        return self.get_conversation(conversation_id)

    def update_conversation_meta(self, conversation_id: str, **meta: Any) -> Conversation:
        """Merge ``meta`` keys into the conversation's meta; a ``None`` value removes the key."""
        with self._db.write() as conn:
            current = self._conversation_meta(conn, conversation_id)
            current.update(meta)
            merged = {key: value for key, value in current.items() if value is not None}
            self._update_conversation(conversation_id, "meta = ?", (dump_meta(merged),))
        return self.get_conversation(conversation_id)

    def delete_conversation(self, conversation_id: str) -> None:
        with self._db.write() as conn:
            deleted = conn.execute(
                "DELETE FROM conversations WHERE id = ?", (conversation_id,)
            ).rowcount
        if not deleted:
            raise NotFoundError(f"No conversation with id {conversation_id}.")
        logger.info("deleted conversation %s", conversation_id)

    def _update_conversation(
        self, conversation_id: str, assignment: str, params: tuple[Any, ...]
    ) -> None:
        with self._db.write() as conn:
            changed = conn.execute(
                f"UPDATE conversations SET {assignment}, updated_at = ? WHERE id = ?",
                (*params, now_text(), conversation_id),
            ).rowcount
        if not changed:
            raise NotFoundError(f"No conversation with id {conversation_id}.")

    def _conversation_meta(self, conn: sqlite3.Connection, conversation_id: str) -> dict[str, Any]:
        row = conn.execute(
            "SELECT meta FROM conversations WHERE id = ?", (conversation_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"No conversation with id {conversation_id}.")
        meta: dict[str, Any] = json.loads(row[0])
        return meta
