"""A front end follows what other connections write to one conversation: only the records
written since its mark, never another conversation's, never the whole conversation again."""

from __future__ import annotations

from pathlib import Path

from storage.sqlite_store import SqliteConversationStore


def test_only_records_written_after_the_mark_come_back(tmp_path: Path) -> None:
    path = tmp_path / "weaver.db"
    with SqliteConversationStore(path) as mine, SqliteConversationStore(path) as other:
        space = mine.create_conversation("mediator", "Space")
        elsewhere = mine.create_conversation("mediator", "Elsewhere")
        first = mine.add_message(space.id, "user", "before the mark", None)
        mark = mine.write_mark()
        assert mine.rows_written_after(space.id, mark) == ([], mark)

        second = other.add_message(space.id, "user", "after the mark", first.id)
        other.add_message(elsewhere.id, "user", "another conversation", None)
        third = other.add_message(space.id, "assistant", "a reply", second.id)

        rows, next_mark = mine.rows_written_after(space.id, mark)
        assert [row.id for row in rows] == [second.id, third.id]
        assert rows[1].record() == third
        assert next_mark > mark
        assert mine.rows_written_after(space.id, next_mark) == ([], next_mark)
