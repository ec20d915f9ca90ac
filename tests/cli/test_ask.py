"""``weaver-tui ask`` in the test process, against an OpenAI-compatible server. (Offline, in a
real process that lists its imports: ``test_start_up_imports.py``.)"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import active_leaf_id
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

KEY = "sk-cli-test-key-0123456789"


def _server_env(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": KEY,
        "WEAVER_MODEL": "fake-model",
    }


def test_ask_streams_the_reply_stores_the_turn_and_continues_it(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.script(
        Reply(
            content="Let me look.", tool_calls=[ToolCall("search_knowledge_base", {"query": "RRF"})]
        ),
        Reply("Reciprocal rank fusion merges rankings."),
        Reply("Yes, as I said."),
    )
    env = _server_env(fake_openai)

    first = weaver("ask", "--profile", "researcher", "What is RRF?", env=env)

    assert first.returncode == 0, first.stderr
    assert first.stdout == "Let me look.\n\nReciprocal rank fusion merges rankings.\n"
    err = first.stderr.strip().splitlines()
    assert err[0].startswith('→ search_knowledge_base(query="RRF")')
    assert err[1].startswith("✓ search_knowledge_base")
    assert err[-1].startswith("conversation: ")
    conversation_id = err[-1].split(": ", 1)[1]

    second = weaver("ask", "--conversation", conversation_id, "Are you sure?", env=env)

    assert second.returncode == 0, second.stderr
    assert second.stdout == "Yes, as I said.\n"
    sent = [m["content"] for m in fake_openai.last_body["messages"] if m["role"] == "user"]
    assert sent == ["What is RRF?", "Are you sure?"]

    listed = weaver("conversations")
    assert listed.returncode == 0
    assert listed.stdout.split()[0] == conversation_id
    assert "researcher" in listed.stdout

    with SqliteConversationStore(tmp_path / "data" / "weaver.db") as store:
        leaf_id = active_leaf_id(store, conversation_id)
        assert leaf_id is not None
        roles = [r.role for r in store.path_to_root(leaf_id)]
        assert roles == ["user", "assistant", "tool", "assistant", "user", "assistant"]

    log = (tmp_path / "data" / "weaver.log").read_text(encoding="utf-8")
    assert KEY not in log
    lines = [json.loads(line) for line in log.splitlines()]
    finished = [r for r in lines if r["msg"] == "turn finished"]
    assert len(finished) == 2
    assert all(r["trace_id"] for r in finished)
    assert finished[0]["trace_id"] != finished[1]["trace_id"]
    assert finished[0]["model"] == "fake-model"
    assert "latency_ms" in finished[0]
