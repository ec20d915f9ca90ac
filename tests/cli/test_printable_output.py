"""Nothing the CLI prints can drive the terminal: escape sequences and control characters in
titles, messages or paths are dropped (tabs and newlines stay)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore

HOSTILE = "Budget\x1b]0;pwned\x07 plan\x1b[2J\x1b[31m!\x9b1m\x00\x08"


def test_conversations_and_import_print_no_escape(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.create_conversation("mediator", HOSTILE)
        store.add_message(conversation.id, "user", "hello", None)
    listed = weaver("conversations")
    assert listed.returncode == 0, listed.stderr
    assert "\x1b" not in listed.stdout
    assert "\x07" not in listed.stdout
    assert "Budget plan!" in listed.stdout

    exported = weaver("export", conversation.id, "--format", "jsonl", "--output", "exp")
    assert exported.returncode == 0, exported.stderr
    imported = weaver("import", "exp", "--again")  # into the store it came from
    assert imported.returncode == 0, imported.stderr
    assert "\x1b" not in imported.stdout
    assert "Budget plan!" in imported.stdout
