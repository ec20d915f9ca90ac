"""Small builders of conversation trees shared by the storage tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.models import MessageRecord
from storage.store import ConversationStore


def add_turn(
    store: ConversationStore,
    conversation_id: str,
    parent_id: str | None,
    question: str,
    answer: str,
) -> tuple[MessageRecord, MessageRecord]:
    """A user record and its assistant reply, like one finished turn."""
    user = store.add_message(conversation_id, "user", question, parent_id)
    reply = store.add_message(
        conversation_id, "assistant", answer, user.id, {"provider": "offline", "model": "offline"}
    )
    return user, reply


def add_tool_round(
    store: ConversationStore,
    conversation_id: str,
    parent_id: str,
    calls: list[tuple[str, str, dict[str, object], str]],
) -> MessageRecord:
    """An assistant tool-call record and one tool record per call: (id, name, args, output).

    Returns the last tool record.
    """
    call_record = store.add_message(
        conversation_id,
        "assistant",
        "",
        parent_id,
        {"tool_calls": [{"id": cid, "name": name, "args": args} for cid, name, args, _ in calls]},
    )
    last = call_record
    for cid, name, _, output in calls:
        last = store.add_message(
            conversation_id, "tool", output, last.id, {"tool_call_id": cid, "name": name}
        )
    return last


def assert_consistent(db_path: Path) -> None:
    """The file passes SQLite's integrity, foreign-key and full-text-index checks."""
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        # rank=1 also compares the index with the messages table (external content).
        raw.execute("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")
    finally:
        raw.close()


def assert_sentence(caught: pytest.ExceptionInfo[BaseException], *words: str) -> None:
    """The error reads as one sentence a user can act on, naming each of ``words``."""
    text = str(caught.value)
    assert text, text
    assert "\n" not in text, text
    assert text.endswith("."), text
    for word in words:
        assert word in text, (word, text)
