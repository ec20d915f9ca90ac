"""``weaver-tui store migrate``: the data folder's SQLite file to a real PostgreSQL server and
back, idempotent, its summary naming the server without the password."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def test_a_store_migrates_to_the_server_and_back_and_again_without_change(
    weaver: Weaver, postgres_url: str, tmp_path: Path
) -> None:
    asked = weaver("ask", "--profile", "ide-helper", "list the files")
    assert asked.returncode == 0, asked.stderr
    conversation_id = asked.stderr.strip().splitlines()[-1].split(": ", 1)[1]
    with_password = postgres_url.replace("weaver@", "weaver:pw-s3cret@")  # trust: any password

    moved = weaver("store", "migrate", "--to", with_password)
    assert moved.returncode == 0, moved.stderr
    summary = moved.stderr.strip().splitlines()[-1]
    assert "1 conversations" in summary
    assert "(counts checked)" in summary
    assert "pw-s3cret" not in moved.stderr + moved.stdout
    assert "weaver:***@" in summary

    again = weaver("store", "migrate", "--to", env={"WEAVER_STORAGE__URL": postgres_url})
    assert again.returncode == 0, again.stderr
    assert again.stderr.strip().splitlines()[-1].split(": ", 1)[1] == summary.split(": ", 1)[1]

    on_server = weaver("conversations", env={"WEAVER_STORAGE__URL": postgres_url})
    assert on_server.stdout.split()[0] == conversation_id

    elsewhere = tmp_path / "elsewhere"
    back = weaver(
        "store", "migrate", "--from", postgres_url, env={"WEAVER_DATA_DIR": str(elsewhere)}
    )
    assert back.returncode == 0, back.stderr
    with (
        SqliteConversationStore(tmp_path / "data" / "weaver.db") as first,
        SqliteConversationStore(elsewhere / "weaver.db") as copy,
    ):
        assert copy.list_messages(conversation_id) == first.list_messages(conversation_id)
        assert copy.get_conversation(conversation_id) == first.get_conversation(conversation_id)


def test_migrating_without_a_server_named_says_how_to_name_one(weaver: Weaver) -> None:
    done = weaver("store", "migrate", "--to")
    assert done.returncode != 0
    assert "WEAVER_STORAGE__URL" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
