"""The tree from scripts: ``ask --edit`` answers a new version of a message of yours,
``conversations --json`` and ``search [--json]`` over every branch."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def _conversation(done: subprocess.CompletedProcess[str]) -> str:
    return done.stderr.strip().splitlines()[-1].removeprefix("conversation: ")


def test_ask_edit_answers_a_new_version_beside_the_first(weaver: Weaver, tmp_path: Path) -> None:
    first = weaver("--provider", "offline", "--profile", "mediator", "ask", "first wording")
    assert first.returncode == 0, first.stderr
    conversation_id = _conversation(first)
    data = tmp_path / "data" / "weaver.db"
    with SqliteConversationStore(data) as store:
        [question] = [r for r in store.list_messages(conversation_id) if r.role == "user"]
        reply = next(r for r in store.list_messages(conversation_id) if r.role == "assistant")
    edited = weaver(
        "--provider", "offline", "ask", "--json", "--quiet", "--edit", question.id, "second wording"
    )
    assert edited.returncode == 0, edited.stderr
    result = json.loads(edited.stdout)
    assert result["conversation_id"] == conversation_id
    with SqliteConversationStore(data) as store:
        versions = store.siblings(question.id)
        assert sorted(r.content for r in versions) == ["first wording", "second wording"]
        new = store.get_message(result["user_message_id"])
        assert new.parent_id == question.parent_id
    refused = weaver("--provider", "offline", "ask", "--edit", reply.id, "no")
    assert refused.returncode == 2
    assert "--parent" in refused.stderr


def test_conversations_and_search_as_json(weaver: Weaver) -> None:
    done = weaver("--provider", "offline", "--profile", "mediator", "ask", "budget talk quokka")
    conversation_id = _conversation(done)
    [listed] = [json.loads(line) for line in weaver("conversations", "--json").stdout.splitlines()]
    assert listed["id"] == conversation_id
    assert listed["profile"] == "mediator"
    found = weaver("search", "quokka", "--json")
    assert found.returncode == 0
    hits = [json.loads(line) for line in found.stdout.splitlines()]
    assert {h["conversation_id"] for h in hits} == {conversation_id}
    assert any(h["role"] == "user" for h in hits)
    assert weaver("search", "zebrafinch").returncode == 1  # none found, as grep
    assert weaver("search", "  ").returncode == 2
