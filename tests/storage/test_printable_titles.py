"""Titles are stored printable: an escape sequence or control character in a title (typed, made
from a first message, or imported) never reaches the database, so nothing that shows a title
can drive the terminal with it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from storage.printable import UNTITLED, printable, printable_title
from storage.sqlite_store import SqliteConversationStore

HOSTILE = (
    "Budget\x1b]52;c;cm0gLXJmIH4K\x07 plan\x1b]0;pwned\x07"
    "\x1b]8;;http://evil.example\x1b\\!\x1b]8;;\x1b\\\x1b[2A\x1b[2J\x9b31m\x9d0;t\x9c\x00"
)
CONTROLS = [chr(c) for c in range(0x20) if chr(c) not in "\n\t"] + [
    chr(c) for c in range(0x7F, 0xA0)
]


def assert_printable(text: str) -> None:
    found = sorted({hex(ord(c)) for c in text if c in CONTROLS})
    assert not found, f"control characters {found} in {text!r}"


def stored_titles(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [title for (title,) in conn.execute("SELECT title FROM conversations")]


def test_printable_drops_every_sequence_and_control_but_tab_and_newline() -> None:
    assert printable(HOSTILE) == "Budget plan!"
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("\x90secret\x9cok \x9e0\x9c\x9f1\x9cx") == "ok x"
    assert_printable(printable("".join(CONTROLS)))


def test_a_title_is_one_printable_line_and_never_empty() -> None:
    assert printable_title("Budget\n\tplan\x1b[31m") == "Budget plan"
    assert printable_title("\x1b]0;x\x07") == UNTITLED


def test_created_and_renamed_titles_are_stored_clean(tmp_path: Path) -> None:
    path = tmp_path / "weaver.db"
    with SqliteConversationStore(path) as store:
        created = store.create_conversation("mediator", HOSTILE)
        assert created.title == "Budget plan!"
        renamed = store.rename_conversation(created.id, f"Renamed {HOSTILE}")
        assert renamed.title == "Renamed Budget plan!"
        assert store.list_conversations()[0].title == "Renamed Budget plan!"
    for title in stored_titles(path):
        assert_printable(title)


def test_an_imported_title_is_stored_clean(tmp_path: Path) -> None:
    folder = tmp_path / "hostile"
    folder.mkdir()
    meta = {
        "id": "c-1",
        "title": HOSTILE,
        "profile": "mediator",
        "created_at": "2025-11-14T12:00:00Z",
        "updated_at": "2025-11-14T12:05:00Z",
    }
    (folder / "meta.json").write_text(json.dumps(meta))
    message: dict[str, object] = {"id": "m1", "conversation_id": "c-1", "role": "user", "content": "hi",
               "parent_id": None, "depth": 0, "version": 1,
               "created_at": "2025-11-14T12:01:00Z", "meta": {}}  # fmt: skip
    (folder / "messages.jsonl").write_text(json.dumps(message) + "\n")
    path = tmp_path / "weaver.db"
    with SqliteConversationStore(path) as store:
        imported = store.import_jsonl(folder)
        assert imported.title == "Budget plan!"
    assert stored_titles(path) == ["Budget plan!"]


def test_a_title_stored_before_titles_were_cleaned_reads_clean(tmp_path: Path) -> None:
    path = tmp_path / "weaver.db"
    with SqliteConversationStore(path) as store:
        conversation = store.create_conversation("mediator", "plain")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE conversations SET title = ?", (HOSTILE,))
    with SqliteConversationStore(path) as store:
        assert store.get_conversation(conversation.id).title == "Budget plan!"
        assert store.list_conversations()[0].title == "Budget plan!"
