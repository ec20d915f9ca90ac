"""A file that is not a usable conversation database stops with one sentence, not a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.schema import LATEST_VERSION
from storage.sqlite_store import SqliteConversationStore
from storage.store import StorageError


def _open_error(path: Path) -> str:
    with pytest.raises(StorageError) as caught:
        SqliteConversationStore(path)
    message = str(caught.value)
    assert "\n" not in message
    assert "Traceback" not in message
    assert str(path) in message or str(path.parent) in message
    return message


def test_garbage_file(tmp_path: Path) -> None:
    path = tmp_path / "conversations.sqlite"
    path.write_bytes(b"this is a text file, not a database\n" * 100)
    assert "move it aside or restore a backup" in _open_error(path)


def test_damaged_database(tmp_path: Path) -> None:
    path = tmp_path / "conversations.sqlite"
    with SqliteConversationStore(path) as store:
        conv = store.create_conversation("ide-helper")
        for i in range(50):
            store.add_message(conv.id, "user", f"message {i} " * 50, None)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)  # smash the schema page after the header
    path.write_bytes(bytes(data))
    for leftover in ("-wal", "-shm"):
        Path(str(path) + leftover).unlink(missing_ok=True)
    assert "is damaged" in _open_error(path)


def test_a_write_after_sqlite_rolled_back_reports_the_damage(tmp_path: Path) -> None:
    """SQLite rolls a transaction back by itself after some errors (a damaged page): the user
    hears about the damage, not about the failed second rollback."""
    path = tmp_path / "conversations.sqlite"
    with SqliteConversationStore(path) as store:
        db = store._db

        def write_after_rollback() -> None:
            with db.write() as conn:
                conn.execute("ROLLBACK")  # what SQLite did on its own
                raise sqlite3.DatabaseError("database disk image is malformed")

        with pytest.raises(StorageError) as caught:
            write_after_rollback()
        assert not db._conn.in_transaction
    message = str(caught.value)
    assert "is damaged" in message
    assert str(path) in message
    assert "rollback" not in message


def test_another_programs_database(tmp_path: Path) -> None:
    path = tmp_path / "conversations.sqlite"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    raw.commit()
    raw.close()
    assert "another program's SQLite database" in _open_error(path)


def test_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "conversations.sqlite"
    SqliteConversationStore(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    raw.close()
    assert "newer weaver-tui" in _open_error(path)


def test_a_data_folder_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert "WEAVER_DATA_DIR" in _open_error(blocker / "sub" / "conversations.sqlite")


def test_a_fresh_file_gets_wal_foreign_keys_and_the_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "conversations.sqlite"
    with SqliteConversationStore(path) as store:
        store.create_conversation("ide-helper")
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert raw.execute("PRAGMA user_version").fetchone() == (LATEST_VERSION,)
    raw.close()
    with SqliteConversationStore(path) as again:  # reopening migrates nothing and keeps data
        assert len(again.list_conversations()) == 1


def test_using_a_closed_store_is_one_sentence(tmp_path: Path) -> None:
    store = SqliteConversationStore(tmp_path / "conversations.sqlite")
    store.close()
    store.close()  # closing twice is harmless
    with pytest.raises(StorageError, match="is closed; open it again"):
        store.list_conversations()
