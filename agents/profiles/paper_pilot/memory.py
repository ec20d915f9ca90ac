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

from agents.profiles.paper_pilot.knowledge.index import query_terms

MAX_FACTS = 500
NEAR_DUPLICATE = 0.8
"""Share of words two facts have in common above which they count as the same fact."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5 (
    text, content = 'facts', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS facts_ai AFTER INSERT ON facts BEGIN
    INSERT INTO facts_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS facts_ad AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
"""


@dataclass(frozen=True, slots=True)
class Fact:
    id: int
    text: str
    conversation_id: str
    message_id: str


def memory_path(data_dir: Path) -> Path:
    return Path(data_dir) / "knowledge" / "memory.sqlite"


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


class Memory:
    """The user's facts in one SQLite file."""

    def __init__(self, path: Path, max_facts: int = MAX_FACTS) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.max_facts = max_facts
        self._conn = sqlite3.connect(path, check_same_thread=False)
        self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def recall(self, question: str, limit: int = 3) -> list[Fact]:
        """The facts most relevant to ``question``."""
        terms = query_terms(question)
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        rows = self._conn.execute(
            "SELECT f.id, f.text, f.conversation_id, f.message_id FROM facts_fts "
            "JOIN facts f ON f.id = facts_fts.rowid WHERE facts_fts MATCH ? "
            "ORDER BY rank LIMIT ?",
            (match, limit),
        ).fetchall()
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
        return Fact(int(cursor.lastrowid or 0), text, conversation_id, message_id)

    def all(self) -> list[Fact]:
        rows = self._conn.execute(
            "SELECT id, text, conversation_id, message_id FROM facts ORDER BY id"
        ).fetchall()
        return [Fact(*row) for row in rows]

    def forget(self, fact_id: int) -> bool:
        with self._conn:
            return self._conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,)).rowcount > 0
