"""An MCP server's credentials (an ``Authorization`` header, a token in ``env``) reach the
server and nowhere else: not the output of ``ask``, the log file (at DEBUG), the store, an
export, or the sentence about a server that could not be started."""

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

HEADER_SECRET = "plain-s3cret-header-0042"
ENV_SECRET = "plain-s3cret-env-0042"

Weaver = Callable[..., subprocess.CompletedProcess[str]]


def _env(fake_openai: FakeOpenAI) -> dict[str, str]:
    return {
        "WEAVER_PROVIDER": "openai-compatible",
        "WEAVER_BASE_URL": fake_openai.base_url,
        "WEAVER_API_KEY": "sk-test-not-a-real-key",
        "WEAVER_MODEL": "fake-model",
        "WEAVER_LOG_LEVEL": "DEBUG",
    }


def _config(tmp_path: Path, servers: dict[str, object]) -> None:
    (tmp_path / "config.yaml").write_text(json.dumps({"mcp_servers": servers}))


def _lookup() -> Reply:
    return Reply(tool_calls=[ToolCall("lookup_ticket", {"ticket_id": "42"})])


def _conversation_id(stderr: str) -> str:
    (line,) = [line for line in stderr.splitlines() if line.startswith("conversation: ")]
    return line.removeprefix("conversation: ").strip()


def _everything_written(
    weaver: Weaver, tmp_path: Path, result: subprocess.CompletedProcess[str]
) -> str:
    """What ``ask`` printed, the log file, the store's files and both exports, as one text."""
    data = tmp_path / "data"
    texts = [result.stdout, result.stderr, (data / "weaver.log").read_text(encoding="utf-8")]
    texts += [path.read_bytes().decode("utf-8", "replace") for path in data.glob("*.db*")]
    conversation = _conversation_id(result.stderr)
    for form in ("md", "jsonl"):
        exported = weaver("export", conversation, "--format", form)
        assert exported.returncode == 0, exported.stderr
        texts.append(exported.stdout)
    return "\n".join(texts)


def test_an_authorization_header_reaches_the_http_server_and_nothing_else(
    weaver: Weaver,
    fake_openai: FakeOpenAI,
    tmp_path: Path,
    tickets_http: SharedTickets,
) -> None:
    log = tickets_http.log
    authorized = {"Authorization": f"Token {HEADER_SECRET}"}
    _config(tmp_path, {"remote": tickets_http.entry(approve="always", headers=authorized)})
    fake_openai.script(_lookup(), Reply("On fire."))

    result = weaver("ask", "what is ticket 42?", env=_env(fake_openai))

    assert result.returncode == 0, result.stderr
    assert ran(log) == ["lookup_ticket 42"]
    credentials = Path(f"{log}.credentials").read_text(encoding="utf-8")
    assert credentials == f"authorization: Token {HEADER_SECRET}\n"
    assert "lookup_ticket" in (tmp_path / "data" / "weaver.log").read_text(encoding="utf-8")
    assert HEADER_SECRET not in _everything_written(weaver, tmp_path, result)


def test_a_token_in_env_reaches_the_stdio_server_and_nothing_else(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    log = tmp_path / "tickets.log"
    env = {"TICKETS_LOG": str(log), "TICKETS_TOKEN": ENV_SECRET}
    _config(tmp_path, {"tickets": {"command": sys.executable, "args": [str(SERVER_SCRIPT)],
                                   "env": env, "approve": "always"}})  # fmt: skip
    fake_openai.script(_lookup(), Reply("On fire."))

    result = weaver("ask", "what is ticket 42?", env=_env(fake_openai))

    assert result.returncode == 0, result.stderr
    assert Path(f"{log}.credentials").read_text(encoding="utf-8") == f"token: {ENV_SECRET}\n"
    assert ENV_SECRET not in _everything_written(weaver, tmp_path, result)


def test_a_header_the_http_library_refuses_is_not_quoted_in_the_servers_sentence(
    weaver: Weaver, fake_openai: FakeOpenAI, tmp_path: Path, tickets_http: SharedTickets
) -> None:
    url = tickets_http.url
    bad = f" Token {HEADER_SECRET}"  # a leading space: the HTTP library refuses, quoting it
    _config(tmp_path, {"remote": {"transport": "streamable_http", "url": url,
                                  "approve": "always", "headers": {"Authorization": bad}}})  # fmt: skip
    fake_openai.script(Reply("No tools today."))

    result = weaver("ask", "what is ticket 42?", env=_env(fake_openai))

    assert result.returncode == 0, result.stderr
    problem = [
        line for line in result.stderr.splitlines() if "'remote' could not be started" in line
    ]
    assert len(problem) == 1, result.stderr
    log = (tmp_path / "data" / "weaver.log").read_text(encoding="utf-8")
    assert "mcp server not usable" in log
    assert HEADER_SECRET not in _everything_written(weaver, tmp_path, result)


def test_a_knowledge_servers_refused_header_is_not_quoted_either(
    weaver: Weaver, tmp_path: Path, tickets_http: SharedTickets
) -> None:
    url = tickets_http.url
    connection = {"transport": "streamable_http", "url": url,
                  "headers": {"Authorization": f" Token {HEADER_SECRET}"}}  # fmt: skip
    config = {"mcp": {"connections": {"zoo": connection}}}
    (tmp_path / "config.yaml").write_text(json.dumps(config))

    listed = weaver("kb", "list")

    assert listed.returncode == 1
    [line] = listed.stderr.strip().splitlines()
    assert "The knowledge server 'zoo' could not be started" in line
    assert HEADER_SECRET not in line
