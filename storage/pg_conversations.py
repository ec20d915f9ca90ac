"""Conversation rows on PostgreSQL: create, list, rename, meta, delete (a mixin of
:class:`storage.pg_store.PgConversationStore`)."""

from __future__ import annotations

import json
import logging
from typing import Any

from storage.codec import CONVERSATION_COLUMNS, dump_meta, new_id, now_text, row_to_conversation
from storage.conversations import PROMPT_HISTORY_CHARS
from storage.models import Conversation
from storage.pg_database import Conn, PgDatabase
from storage.printable import printable_title
from storage.rows import text_to_time
from storage.store import NotFoundError

logger = logging.getLogger(__name__)


class PgConversationOps:
    """The conversation half of the PostgreSQL store."""

    _db: PgDatabase

    def create_conversation(
        self, profile: str, title: str = "New conversation", meta: dict[str, Any] | None = None
    ) -> Conversation:
        conv_id, now, title = new_id(), now_text(), printable_title(title)
        with self._db.write() as conn:
            conn.execute(
                f"INSERT INTO conversations ({CONVERSATION_COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (conv_id, title, profile, now, now, dump_meta(meta)),
            )
        logger.info("created conversation %s (%s)", conv_id, profile)
        return Conversation(
            conv_id, title, profile, text_to_time(now), text_to_time(now), dict(meta or {})
        )

    def get_conversation(self, conversation_id: str) -> Conversation:
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {CONVERSATION_COLUMNS} FROM conversations WHERE id = %s",
                (conversation_id,),
            ).fetchone()
        if row is None:
            raise NotFoundError(f"No conversation with id {conversation_id}.")
        return row_to_conversation(row)

    def list_conversations(
        self, profile: str | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[Conversation]:
        sql = f"SELECT {CONVERSATION_COLUMNS} FROM conversations"
        params: list[Any] = []
        if profile is not None:
            sql += " WHERE profile = %s"
            params.append(profile)
        sql += " ORDER BY updated_at DESC, seq DESC LIMIT %s OFFSET %s"
        params += [limit, max(offset, 0)]
        with self._db.read() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [row_to_conversation(row) for row in rows]

    def count_conversations(self, profile: str | None = None) -> int:
        sql = "SELECT count(*) FROM conversations"
        params: tuple[str, ...] = ()
        if profile is not None:
            sql, params = sql + " WHERE profile = %s", (profile,)
        with self._db.read() as conn:
            row = conn.execute(sql, params).fetchone()
        return int(row[0]) if row else 0

    def recent_prompts(self, profile: str, limit: int = 200) -> list[str]:
        sql = (
            "SELECT m.content FROM messages AS m"
            " JOIN conversations AS c ON c.id = m.conversation_id"
            " WHERE m.role = 'user' AND c.profile = %s AND length(m.content) <= %s"
            " ORDER BY m.created_at DESC, m.seq DESC LIMIT %s"
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
        with self._db.write() as conn:
            self._update_conversation(conn, conversation_id, "title", printable_title(title))
        return self.get_conversation(conversation_id)

    def update_conversation_meta(self, conversation_id: str, **meta: Any) -> Conversation:
        """Merge ``meta`` keys into the conversation's meta; a ``None`` value removes the key."""
        with self._db.write() as conn:
            current = self._conversation_meta(conn, conversation_id)
            current.update(meta)
            merged = {key: value for key, value in current.items() if value is not None}
            self._update_conversation(conn, conversation_id, "meta", dump_meta(merged))
        return self.get_conversation(conversation_id)

    def delete_conversation(self, conversation_id: str) -> None:
        with self._db.write() as conn:
            deleted = conn.execute(
                "DELETE FROM conversations WHERE id = %s", (conversation_id,)
            ).rowcount
        if not deleted:
            raise NotFoundError(f"No conversation with id {conversation_id}.")
        logger.info("deleted conversation %s", conversation_id)

    @staticmethod
    def _update_conversation(conn: Conn, conversation_id: str, column: str, value: str) -> None:
        changed = conn.execute(
            f"UPDATE conversations SET {column} = %s, updated_at = %s WHERE id = %s",
            (value, now_text(), conversation_id),
        ).rowcount
        if not changed:
            raise NotFoundError(f"No conversation with id {conversation_id}.")

    @staticmethod
    def _conversation_meta(conn: Conn, conversation_id: str) -> dict[str, Any]:
        row = conn.execute(
            "SELECT meta FROM conversations WHERE id = %s", (conversation_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"No conversation with id {conversation_id}.")
        meta: dict[str, Any] = json.loads(row[0])
        return meta
