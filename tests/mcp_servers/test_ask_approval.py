"""``weaver-tui ask`` with the user's MCP servers from config.yaml: a call that needs approval
runs only with ``--approve``, else it is refused in one sentence naming the tool; a server
over streamable HTTP serves the same way; a wrong entry stops with one line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.cli.conftest import weaver
from tests.mcp_servers.conftest import SERVER_SCRIPT, ran
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
    weaver: Callable[..., subprocess.CompletedProcess[str]], fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    log = tmp_path / "tickets.log"
    _config(tmp_path, {"tickets": _stdio(log)})
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


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The tickets server over streamable HTTP: its URL and the log of its calls."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "http-tickets.log"
    server = subprocess.Popen(
        [sys.executable, str(SERVER_SCRIPT), "--http", str(port)],
        env={"TICKETS_LOG": str(log), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/mcp", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_server_over_streamable_http(
    weaver: Callable[..., subprocess.CompletedProcess[str]],
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    http_server: tuple[str, Path],
) -> None:
    url, log = http_server
    _config(tmp_path, {"remote": {"transport": "streamable_http", "url": url,
                                  "headers": {"X-Team": "support"}, "approve": "always"}})  # fmt: skip
    fake_openai.script(_lookup(), Reply("On fire."))
    result = weaver("ask", "what is ticket 42?", env=_env(fake_openai))
    assert result.returncode == 0, result.stderr
    assert ran(log) == ["lookup_ticket 42"]


def test_a_wrong_entry_stops_with_one_line(
    weaver: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    _config(tmp_path, {"tickets": {"transport": "stdio", "approve": "sometimes"}})
    result = weaver("ask", "hello")
    assert result.returncode == 2
    assert "mcp_servers" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
