"""``ask --sender`` names a participant of the conversation: any other name (``shared``, a
stranger) is refused in one sentence that names the participants, before anything is stored."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore


def _db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "weaver.db"


def _conversation_count(tmp_path: Path) -> int:
    if not _db(tmp_path).exists():
        return 0
    with SqliteConversationStore(_db(tmp_path)) as store:
        return len(store.list_conversations())


def _message_count(tmp_path: Path, conversation_id: str) -> int:
    with SqliteConversationStore(_db(tmp_path)) as store:
        return len(store.list_messages(conversation_id))


def test_a_sender_who_is_not_a_participant_is_refused_and_nothing_is_stored(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    with SqliteConversationStore(_db(tmp_path)) as store:
        conversation = store.create_conversation(
            "mediator", "Budget", meta={"participants": ["Alex", "Sam", "Kim"]}
        )
    for stranger in ("shared", "Mallory"):
        result = weaver("--provider", "offline", "ask", "--conversation", conversation.id,
                        "--sender", stranger, "hello")  # fmt: skip
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1
        assert "Traceback" not in result.stderr
        assert f"'{stranger}' is not a participant" in lines[0]
        assert "Alex, Sam and Kim" in lines[0]
    assert _message_count(tmp_path, conversation.id) == 0


def test_a_new_conversation_takes_the_profile_s_participants(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    refused = weaver("--provider", "offline", "ask", "--profile", "mediator",
                     "--sender", "Mallory", "hello")  # fmt: skip
    assert refused.returncode == 2
    assert "Alex and Sam" in refused.stderr
    assert _conversation_count(tmp_path) == 0

    accepted = weaver("--provider", "offline", "ask", "--profile", "mediator",
                      "--sender", "alex", "hello")  # fmt: skip
    assert accepted.returncode == 0, accepted.stderr
    with SqliteConversationStore(_db(tmp_path)) as store:
        (conversation,) = store.list_conversations()
        (user, *_) = store.list_messages(conversation.id)
    assert user.meta.get("sender") == "Alex"  # spelled as the space spells it


def test_a_profile_with_one_user_refuses_a_sender(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    result = weaver("--provider", "offline", "ask", "--profile", "ide-helper",
                    "--sender", "Alex", "hello")  # fmt: skip
    assert result.returncode == 2
    assert "leave out --sender" in result.stderr
