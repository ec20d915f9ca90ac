"""``export --format jsonl`` without ``--output`` is one stream on stdout; ``import`` takes that
stream as a file or on stdin (``-``), and imports a source once unless told ``--again``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore


def _seed(tmp_path: Path) -> str:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.create_conversation("mediator", "Budget talk")
        first = store.add_message(conversation.id, "user", "hello", None)
        store.add_message(conversation.id, "assistant", "welcome", first.id)
        return conversation.id


def test_export_streams_and_import_reads_it_back_once(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    conversation_id = _seed(tmp_path)
    exported = weaver("export", conversation_id, "--format", "jsonl")
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.splitlines()
    assert json.loads(lines[0])["id"] == conversation_id
    assert "role" not in json.loads(lines[0])
    assert [json.loads(line)["role"] for line in lines[1:]] == ["user", "assistant"]
    assert not any(p.name.startswith("weaver-") for p in tmp_path.iterdir())  # no stray folder

    stream = tmp_path / "talk.jsonl"
    stream.write_text(exported.stdout)
    first = weaver("import", str(stream))  # made here, never imported: a copy
    assert first.returncode == 0, first.stderr
    assert "already" not in first.stderr
    assert "Budget talk" in first.stdout
    again = weaver("import", str(stream))
    assert again.returncode == 0
    assert f"already imported as {first.stdout.split()[0]}" in again.stderr
    copy = weaver("import", str(stream), "--again")
    assert copy.returncode == 0
    assert "Budget talk" in copy.stdout

    piped = weaver("import", "-", stdin=exported.stdout.encode())
    assert piped.returncode == 0
    assert "already imported as" in piped.stderr
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        assert len(store.list_conversations()) == 3


def test_a_stream_that_is_not_an_export_is_one_sentence(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "hi"}\n')
    result = weaver("import", str(bad))
    assert result.returncode == 2
    assert "the first line is not a conversation" in result.stderr


def test_export_to_a_file_path_writes_the_stream_there(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    conversation_id = _seed(tmp_path)
    target = tmp_path / "x.jsonl"
    result = weaver("export", conversation_id, "--format", "jsonl", "--output", str(target))
    assert result.returncode == 0, result.stderr
    assert target.is_file()
    lines = target.read_text().splitlines()
    assert json.loads(lines[0])["id"] == conversation_id
    assert [json.loads(line)["role"] for line in lines[1:]] == ["user", "assistant"]
    imported = weaver("import", str(target))
    assert imported.returncode == 0
    assert "Budget talk" in imported.stdout


def test_export_into_an_existing_folder_writes_the_two_files(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    conversation_id = _seed(tmp_path)
    folder = tmp_path / "exports"
    folder.mkdir()
    result = weaver("export", conversation_id, "--format", "jsonl", "--output", str(folder))
    assert result.returncode == 0, result.stderr
    assert (folder / "meta.json").is_file()
    assert (folder / "messages.jsonl").is_file()


def test_export_to_a_folder_that_does_not_exist_is_one_sentence(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    conversation_id = _seed(tmp_path)
    target = tmp_path / "nowhere" / "x.jsonl"
    result = weaver("export", conversation_id, "--format", "jsonl", "--output", str(target))
    assert result.returncode == 1
    assert result.stderr.startswith(f"weaver-tui: cannot write {target}")
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_importing_a_missing_path_says_it_does_not_exist(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    result = weaver("import", str(tmp_path / "gone.jsonl"))
    assert result.returncode == 2
    assert "gone.jsonl: it does not exist" in result.stderr
    assert "meta.json" not in result.stderr


def test_every_failure_line_starts_in_lower_case(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    bad = tmp_path / "folder"
    bad.mkdir()
    (bad / "meta.json").write_text('{"id": "c1", "profile": "mediator", "title": "t"}')
    (bad / "messages.jsonl").write_text("{not json\n")
    result = weaver("import", str(bad))
    assert result.returncode == 1
    assert result.stderr.startswith("weaver-tui: cannot import"), result.stderr
