"""``ask`` checks everything before it creates anything: an empty or oversized message, a
parent that names its own conversation (or does not exist) leave no junk conversation."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore


def _conversations(tmp_path: Path) -> int:
    db = tmp_path / "data" / "weaver.db"
    if not db.exists():
        return 0
    with SqliteConversationStore(db) as store:
        return len(store.list_conversations())


def test_an_empty_message_is_refused_and_nothing_is_created(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    for text in ("", "   \n "):
        result = weaver("--provider", "offline", "ask", text)
        assert result.returncode == 2
        assert "the message is empty" in result.stderr
    assert _conversations(tmp_path) == 0


def test_an_oversized_message_is_refused_before_it_is_stored(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    (tmp_path / "config.yaml").write_text("max_message_bytes: 1000\n")
    result = weaver("--provider", "offline", "ask", "x" * 5000)
    assert result.returncode == 2
    assert "the message is 5 KB, over the 1 KB limit (max_message_bytes)" in result.stderr
    assert _conversations(tmp_path) == 0


def test_a_parent_names_its_conversation_and_an_unknown_one_creates_nothing(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        conversation = store.create_conversation("mediator", "Budget")
        root = store.add_message(conversation.id, "user", "hello", None)
    forked = weaver("--provider", "offline", "ask", "--parent", root.id, "--sender", "Alex", "hi")
    assert forked.returncode == 0, forked.stderr
    assert f"conversation: {conversation.id}" in forked.stderr
    assert _conversations(tmp_path) == 1

    unknown = weaver("--provider", "offline", "ask", "--parent", "nope", "hi")
    assert unknown.returncode != 0
    assert _conversations(tmp_path) == 1
