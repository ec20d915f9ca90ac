"""Every migration after the first applies again safely: a file of the latest schema whose
version was set back by hand to any version from 1 on opens, keeps its rows and ends at the
latest version. (Version 0 says the file has no schema at all; one that has tables is not
weaver-tui's to take over.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.schema import LATEST_VERSION
from storage.sqlite_store import SqliteConversationStore


@pytest.mark.parametrize("version", range(1, LATEST_VERSION))
def test_a_file_set_back_to_any_version_opens_again(tmp_path: Path, version: int) -> None:
    path = tmp_path / "weaver.db"
    with SqliteConversationStore(path) as store:
        conversation = store.create_conversation("ide-helper", "kept")
        store.add_message(conversation.id, "user", "still here", None)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {version}")
    raw.commit()
    raw.close()

    with SqliteConversationStore(path) as store:
        assert store.recent_prompts("ide-helper") == ["still here"]
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    raw.close()
