"""Fixtures for the storage tests: a real SQLite file per test, and small tree builders."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.models import Conversation
from storage.sqlite_store import SqliteConversationStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "conversations.sqlite"


@pytest.fixture
def store(db_path: Path) -> Iterator[SqliteConversationStore]:
    with SqliteConversationStore(db_path) as opened:
        yield opened


@pytest.fixture
def conversation(store: SqliteConversationStore) -> Conversation:
    return store.create_conversation("ide-helper", "Tree test")
