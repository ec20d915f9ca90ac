"""``export --format jsonl`` without ``--output`` is one stream on stdout; ``import`` takes that
stream as a file or on stdin (``-``), and imports a source once unless told ``--again``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore
from tests.cli.conftest import isolated_env


def _seed(tmp_path: Path) -> str:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.create_conversation("mediator", "Budget talk")
        first = store.add_message(conversation.id, "user", "hello", None)
        store.add_message(conversation.id, "assistant", "welcome", first.id)
        return conversation.id


def test_export_streams_and_import_reads_it_back_once(weaver, tmp_path: Path):
    conversation_id = _seed(tmp_path)
    exported = weaver("export", conversation_id, "--format", "jsonl")
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.splitlines()
    assert json.loads(lines[0])["id"] == conversation_id and "role" not in json.loads(lines[0])
    assert [json.loads(line)["role"] for line in lines[1:]] == ["user", "assistant"]
    assert not any(p.name.startswith("weaver-") for p in tmp_path.iterdir())  # no stray folder

    stream = tmp_path / "talk.jsonl"
    stream.write_text(exported.stdout)
    again = weaver("import", str(stream))
    assert again.returncode == 0
    assert "already imported as" in again.stderr  # the same source is in the store already
    copy = weaver("import", str(stream), "--again")
    assert copy.returncode == 0 and "Budget talk" in copy.stdout

    piped = subprocess.run(
        [sys.executable, "-m", "weaver_tui", "import", "-"],
        input=exported.stdout, cwd=tmp_path, env=isolated_env(tmp_path),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert piped.returncode == 0 and "already imported as" in piped.stderr
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        assert len(store.list_conversations()) == 2


def test_a_stream_that_is_not_an_export_is_one_sentence(weaver, tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "hi"}\n')
    result = weaver("import", str(bad))
    assert result.returncode == 2
    assert "the first line is not a conversation" in result.stderr
