"""The table of remembered facts (paper-pilot's memory) in its SQLite file, kept here so the
storage can create and fill it when a store is migrated; the profile owns what the facts
mean (:mod:`agents.profiles.paper_pilot.memory`). The PostgreSQL twin is ``facts`` in
:mod:`storage.pg_schema`."""

from __future__ import annotations

SQLITE_FACTS_SCHEMA = """
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
