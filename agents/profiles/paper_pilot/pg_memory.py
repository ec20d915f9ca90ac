"""paper-pilot's memory on the PostgreSQL server the storage settings name: the same facts and
rules as :class:`agents.profiles.paper_pilot.memory.Memory` (near-duplicates skipped, the
oldest forgotten past the limit), recalled by PostgreSQL's English text search. The table is
the storage's (``facts``, :mod:`storage.pg_schema`), so ``store migrate`` carries it."""

from __future__ import annotations

import time
from typing import Any

from storage.pg_database import PgDatabase

_COLUMNS = "id, text, conversation_id, message_id"


class PgMemory:
    """The user's facts in the ``facts`` table of the database at ``url``."""

    def __init__(self, url: str, max_facts: int) -> None:
        self.max_facts = max_facts
        self._db = PgDatabase(url, pool_size=1)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> PgMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def matching(self, terms: list[str], limit: int) -> list[tuple[Any, ...]]:
        """Facts sharing any of ``terms``, most relevant first."""
        with self._db.read() as conn:
            lexemes: list[str] = []
            for term in terms:
                row = conn.execute(
                    "SELECT tsvector_to_array(to_tsvector('english', %s))", (term,)
                ).fetchone()
                lexemes += list(row[0]) if row and row[0] else []
            if not lexemes:
                return []
            query = " | ".join("'" + lexeme.replace("'", "''") + "'" for lexeme in lexemes)
            return list(
                conn.execute(
                    f"SELECT {_COLUMNS} FROM facts WHERE search @@ to_tsquery('english', %s)"
                    " ORDER BY ts_rank(search, to_tsquery('english', %s)) DESC, id DESC LIMIT %s",
                    (query, query, limit),
                ).fetchall()
            )

    def insert(self, text: str, conversation_id: str, message_id: str) -> int:
        with self._db.write() as conn:
            row = conn.execute(
                "INSERT INTO facts (text, conversation_id, message_id, created_at)"
                " VALUES (%s, %s, %s, %s) RETURNING id",
                (text, conversation_id, message_id, time.time()),
            ).fetchone()
            conn.execute(
                "DELETE FROM facts WHERE id IN (SELECT id FROM facts ORDER BY id"
                " LIMIT greatest((SELECT count(*) FROM facts) - %s, 0))",
                (self.max_facts,),
            )
        return int(row[0]) if row else 0

    def rows(self) -> list[tuple[Any, ...]]:
        with self._db.read() as conn:
            return list(conn.execute(f"SELECT {_COLUMNS} FROM facts ORDER BY id").fetchall())

    def delete(self, fact_id: int) -> bool:
        with self._db.write() as conn:
            return conn.execute("DELETE FROM facts WHERE id = %s", (fact_id,)).rowcount > 0
