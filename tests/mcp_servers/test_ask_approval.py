"""``weaver-tui ask`` with the user's MCP servers from config.yaml: a call that needs approval
runs only with ``--approve``, else it is refused in one sentence naming the tool; a server
over streamable HTTP serves the same way; a wrong entry stops with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.cli.conftest import weaver
from tests.mcp_servers.conftest import SERVER_SCRIPT, SharedTickets, ran
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply, ToolCall

__all__ = ["weaver"]


def _env(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-test-not-a-real-key",
        "WEAVER_MODEL": "fake-model",
    }


def _config(tmp_path: Path, servers: dict[str, object]) -> None:
    (tmp_path / "config.yaml").write_text(json.dumps({"mcp_servers": servers}))


def _stdio(log: Path, **extra: object) -> dict[str, object]:
    return {"command": sys.executable, "args": [str(SERVER_SCRIPT)],
            "env": {"TICKETS_LOG": str(log)}, **extra}  # fmt: skip


def _lookup() -> Reply:
    return Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": "42"})])


def test_without_approve_the_call_is_refused_in_one_sentence(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    tickets_http: SharedTickets,
) -> None:
    log = tickets_http.log
    _config(tmp_path, {"tickets": tickets_http.entry()})
    fake_openai.script(_lookup(), Reply("I could not look it up."))
    result = weaver("ask", "what is ticket 42?", env=_env(fake_openai))
    assert result.returncode == 0, result.stderr
    refused = [line for line in result.stderr.splitlines() if "Refused lookup_ticket" in line]
    assert len(refused) == 1
    assert "--approve" in refused[0]
    assert "Traceback" not in result.stderr
    assert ran(log) == []
    assert "I could not look it up." in result.stdout


def test_with_approve_the_call_runs(
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    log = tmp_path / "tickets.log"
    _config(tmp_path, {"tickets": _stdio(log)})
    fake_openai.script(_lookup(), Reply("It is on fire."))
    result = weaver("ask", "--approve", "what is ticket 42?", env=_env(fake_openai))
    assert result.returncode == 0, result.stderr
    assert ran(log) == ["lookup_ticket 42"]
    assert "✓ lookup_ticket" in result.stderr
    assert "tickets server warming up" not in result.stderr  # its stderr went to the log
    body = fake_openai.chat_requests[1].body
    assert body is not None
    assert any("on fire" in str(m["content"]) for m in body["messages"] if m["role"] == "tool")


def test_a_server_over_streamable_http(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    tickets_http: SharedTickets,
) -> None:
    remote = tickets_http.entry(headers={"X-Team": "support"}, approve="always")
    _config(tmp_path, {"remote": remote})
    fake_openai.script(_lookup(), Reply("On fire."))
    result = weaver("ask", "what is ticket 42?", env=_env(fake_openai))
    assert result.returncode == 0, result.stderr
    assert ran(tickets_http.log) == ["lookup_ticket 42"]


def test_a_wrong_entry_stops_with_one_line(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    _config(tmp_path, {"tickets": {"transport": "stdio", "approve": "sometimes"}})
    result = weaver("ask", "hello")
    assert result.returncode == 2
    assert "mcp_servers" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
