"""The store verbs (conversations, export, import), --version, and configuration failures."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore
from weaver_tui import __version__


def _seed(tmp_path: Path) -> str:
    """A small conversation with a tool round, written straight into the CLI's data folder."""
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.create_conversation("paper-pilot", "Fusion question")
        user = store.add_message(conversation.id, "user", "What is RRF?", None)
        call = store.add_message(
            conversation.id,
            "assistant",
            "",
            user.id,
            meta={
                "tool_calls": [
                    {"id": "c1", "name": "search_knowledge_base", "args": {"query": "RRF"}}
                ]
            },
        )
        tool = store.add_message(
            conversation.id, "tool", "RRF fuses rankings.", call.id, meta={"tool_call_id": "c1"}
        )
        store.add_message(conversation.id, "assistant", "It fuses **rankings**.", tool.id)
        return conversation.id


def test_export_markdown_jsonl_and_import_round_trip(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    conversation_id = _seed(tmp_path)

    markdown = weaver("export", conversation_id, "--format", "md")
    assert markdown.returncode == 0, markdown.stderr
    assert "What is RRF?" in markdown.stdout
    assert "It fuses **rankings**." in markdown.stdout

    out = tmp_path / "exported"
    out.mkdir()  # an existing folder gets the two files
    jsonl = weaver("export", conversation_id, "--format", "jsonl", "--output", str(out))
    assert jsonl.returncode == 0, jsonl.stderr
    assert (out / "meta.json").is_file()
    assert (out / "messages.jsonl").is_file()
    exported = [json.loads(line) for line in (out / "messages.jsonl").read_text().splitlines()]
    assert len(exported) == 4

    imported = weaver("import", str(out), "--again")  # a copy beside the original
    assert imported.returncode == 0, imported.stderr
    new_id = imported.stdout.split()[0]

    listed = weaver("conversations")
    ids = [line.split()[0] for line in listed.stdout.splitlines()]
    assert set(ids) == {conversation_id, new_id}
    assert len(ids) == 2
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        original = [(m.role, m.content) for m in store.list_messages(conversation_id)]
        copy = [(m.role, m.content) for m in store.list_messages(new_id)]
        assert copy == original


def test_unknown_conversation_is_one_line_exit_1(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    result = weaver("export", "no-such-id", "--format", "md")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_version(weaver: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    result = weaver("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"weaver-tui {__version__}"


def test_bad_setting_is_one_line_exit_2(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    result = weaver("conversations", env={"WEAVER_CONTEXT_MESSAGES": "lots"})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "context_messages" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_unreadable_config_file_is_one_line_exit_2(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    (tmp_path / "config.yaml").write_text("provider: [unclosed\n", encoding="utf-8")
    result = weaver("ask", "hello")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "config.yaml" in lines[0], result.stderr


def test_missing_key_for_a_network_provider_is_exit_2(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    result = weaver("ask", "hello", env={"WEAVER_PROVIDER": "moonshot"})
    assert result.returncode == 2
    assert "MOONSHOT_API_KEY" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unwritable_data_folder_is_one_line_exit_2(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    result = weaver("conversations", env={"WEAVER_DATA_DIR": str(blocker / "data")})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def test_help_says_a_verb_is_optional_and_that_none_starts_the_app(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    result = weaver("--help")
    assert result.returncode == 0
    usage = result.stdout.splitlines()[0]
    assert "[VERB" in usage
    assert " VERB ..." not in usage.replace("[VERB ...]", "")
    assert "With no VERB, weaver-tui starts the app" in " ".join(result.stdout.split())
