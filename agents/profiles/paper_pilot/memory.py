"""paper-pilot's long-term memory: facts the user learned, across conversations and branches.

Each fact records the conversation and the reply it came from. Facts are recalled by keyword
relevance (SQLite FTS5, BM25; no embedding model to download) and enter the next answers as
"prior knowledge", never as a cited source. A fact close to one already kept (most of its
words shared) is not stored again, and past :data:`MAX_FACTS` the oldest are forgotten.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from agents.profiles.paper_pilot.knowledge.index import query_terms
from storage.facts_schema import SQLITE_FACTS_SCHEMA
from storage.paths import MEMORY_DB

MAX_FACTS = 500
NEAR_DUPLICATE = 0.8
"""Share of words two facts have in common above which they count as the same fact."""


@dataclass(frozen=True, slots=True)
class Fact:
    id: int
    text: str
    conversation_id: str
    message_id: str


def memory_path(data_dir: Path) -> Path:
    return Path(data_dir) / MEMORY_DB


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


class Facts(Protocol):
    """Where the facts are kept: the SQLite file (:class:`SqliteFacts`) or the PostgreSQL
    server the storage settings name (:class:`agents.profiles.paper_pilot.pg_memory.PgMemory`)."""

    def matching(self, terms: list[str], limit: int) -> list[tuple[Any, ...]]: ...
    def insert(self, text: str, conversation_id: str, message_id: str) -> int: ...
    def rows(self) -> list[tuple[Any, ...]]: ...
    def delete(self, fact_id: int) -> bool: ...
    def close(self) -> None: ...


class SqliteFacts:
    """The facts in one SQLite file (FTS5, BM25)."""

    def __init__(self, path: Path, max_facts: int = MAX_FACTS) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.max_facts = max_facts
        self._conn = sqlite3.connect(path, check_same_thread=False)
        self._conn.executescript(SQLITE_FACTS_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def matching(self, terms: list[str], limit: int) -> list[tuple[Any, ...]]:
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        return self._conn.execute(
            "SELECT f.id, f.text, f.conversation_id, f.message_id FROM facts_fts "
            "JOIN facts f ON f.id = facts_fts.rowid WHERE facts_fts MATCH ? "
            "ORDER BY rank LIMIT ?",
            (match, limit),
        ).fetchall()

    def insert(self, text: str, conversation_id: str, message_id: str) -> int:
        with self._conn:
            cursor = self._conn.execute(
                "INSERT INTO facts (text, conversation_id, message_id, created_at) "
                "VALUES (?, ?, ?, ?)",
                (text, conversation_id, message_id, time.time()),
            )
            excess = self._conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0] - self.max_facts
            if excess > 0:
                self._conn.execute(
                    "DELETE FROM facts WHERE id IN (SELECT id FROM facts ORDER BY id LIMIT ?)",
                    (excess,),
                )
        return int(cursor.lastrowid or 0)

    def rows(self) -> list[tuple[Any, ...]]:
        return self._conn.execute(
            "SELECT id, text, conversation_id, message_id FROM facts ORDER BY id"
        ).fetchall()

    def delete(self, fact_id: int) -> bool:
        with self._conn:
            return self._conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,)).rowcount > 0


class Memory:
    """The user's facts: in the SQLite file at ``path``, or in ``facts`` given."""

    def __init__(
        self, path: Path | None = None, max_facts: int = MAX_FACTS, *, facts: Facts | None = None
    ) -> None:
        if facts is None:
            assert path is not None, "a memory needs a file or a place for its facts"
            facts = SqliteFacts(path, max_facts)
        self._facts = facts
        self.max_facts = max_facts

    def close(self) -> None:
        self._facts.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def recall(self, question: str, limit: int = 3) -> list[Fact]:
        """The facts most relevant to ``question``."""
        terms = query_terms(question)
        if not terms:
            return []
        rows = self._facts.matching(terms, limit)
        wanted = set(terms)
        enough = min(2, len(wanted))
        return [
            Fact(*row)
            for row in rows
            if len(wanted & set(query_terms(row[1]))) >= enough  # one shared word is chance
        ]

    def save(self, text: str, conversation_id: str, message_id: str) -> Fact | None:
        """Keep ``text`` unless a near-duplicate is kept already; ``None`` when skipped."""
        text = " ".join(text.split())
        if not text:
            return None
        words = _words(text)
        for fact in self.recall(text, limit=5):
            other = _words(fact.text)
            if words and len(words & other) / max(len(words | other), 1) >= NEAR_DUPLICATE:
                return None
        fact_id = self._facts.insert(text, conversation_id, message_id)
        return Fact(fact_id, text, conversation_id, message_id)

    def all(self) -> list[Fact]:
        return [Fact(*row) for row in self._facts.rows()]

    def forget(self, fact_id: int) -> bool:
        return self._facts.delete(fact_id)


def open_memory(data_dir: Path) -> Memory:
    """The memory the storage settings choose: the PostgreSQL server of ``storage.url`` when
    this process was given one (``storage.backend.configured_url``), else the file in
    ``data_dir``."""
    from storage.backend import configured_url

    url = configured_url()
    if url is not None:
        from storage.backend import postgres_module

        postgres_module("storage.pg_database")  # one sentence if PostgreSQL is not installed
        from agents.profiles.paper_pilot.pg_memory import PgMemory

        return Memory(facts=PgMemory(url, MAX_FACTS))
    return Memory(memory_path(data_dir))
