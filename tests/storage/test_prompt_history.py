"""The composer's history from the store: the user's distinct prompts to one profile, newest
first, long pastes left out; a database from before the history index gains it on open."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.conversations import PROMPT_HISTORY_CHARS
from storage.sqlite_store import SqliteConversationStore


def test_recent_prompts_are_distinct_newest_first_and_per_profile(
    store: SqliteConversationStore,
) -> None:
    conversation = store.create_conversation("ide-helper", "one")
    parent = None
    for text in ["alpha", "beta", "alpha", "x" * (PROMPT_HISTORY_CHARS + 1), "gamma"]:
        user = store.add_message(conversation.id, "user", text, parent)
        parent = store.add_message(conversation.id, "assistant", "ok", user.id).id
    other = store.create_conversation("mediator", "two")
    store.add_message(other.id, "user", "not mine", None)

    assert store.recent_prompts("ide-helper") == ["gamma", "alpha", "beta"]
    assert store.recent_prompts("ide-helper", limit=2) == ["gamma", "alpha"]
    assert store.recent_prompts("mediator") == ["not mine"]


def test_a_database_from_before_the_history_index_gains_it(tmp_path: Path) -> None:
    path = tmp_path / "weaver.db"
    SqliteConversationStore(path).close()
    raw = sqlite3.connect(path)
    raw.execute("DROP INDEX messages_user_by_time")
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()

    with SqliteConversationStore(path) as store:
        conversation = store.create_conversation("ide-helper", "old")
        store.add_message(conversation.id, "user", "still here", None)
        assert store.recent_prompts("ide-helper") == ["still here"]
    raw = sqlite3.connect(path)
    names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "messages_user_by_time" in names
    raw.close()
