"""``weaver-tui ask`` on a reply that ended empty, refused, filtered or cut: a non-zero exit,
the one sentence on stderr, and the stored reply exported with its mark."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.reply_outcome import ReplyOutcome
from storage.sqlite_store import SqliteConversationStore
from tests.cli.test_ask import _server_env
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


@pytest.mark.parametrize("profile", ["researcher", "ide-helper"])
@pytest.mark.parametrize("content", ["", "  \n", "\u200b\u2060", "\x1b[0m"])
def test_ask_exits_non_zero_on_an_empty_reply_and_says_so(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    profile: str,
    content: str,
) -> None:
    fake_openai.script(Reply(content))

    result = weaver("ask", "--profile", profile, "hello", env=_server_env(fake_openai))

    assert result.returncode != 0
    assert ReplyOutcome("empty").sentence().lower() in result.stderr.lower()
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (Reply(refusal="I can't help with that."), "refused"),
        (Reply("The first half", finish_reason="content_filter"), "filtered"),
        (Reply("The first half", finish_reason="error"), "unfinished"),
        (Reply("Let me call", finish_reason="MALFORMED_FUNCTION_CALL"), "unfinished"),
        (
            Reply(
                tool_calls=[ToolCall("search_knowledge_base", '{"query": "RR')],
                finish_reason="length",
            ),
            "truncated",
        ),
    ],
)
def test_ask_exits_non_zero_on_a_marked_reply_and_export_shows_the_mark(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    reply: Reply,
    outcome: str,
) -> None:
    fake_openai.script(reply)

    result = weaver("ask", "--profile", "researcher", "hello", env=_server_env(fake_openai))

    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        (conversation,) = store.list_conversations()
        leaf = store.active_leaf(conversation.id)
        assert leaf is not None
        assert leaf.meta["outcome"] == outcome
        assert leaf.meta["error"].lower() in result.stderr.lower()
    if reply.refusal:
        assert reply.refusal in result.stdout
    exported = weaver("export", conversation.id, "--format", "md")
    assert exported.returncode == 0, exported.stderr
    assert leaf.meta["error"] in exported.stdout
    jsonl = weaver("export", conversation.id, "--format", "jsonl")
    assert f'"outcome": "{outcome}"' in jsonl.stdout or f'"outcome":"{outcome}"' in jsonl.stdout
