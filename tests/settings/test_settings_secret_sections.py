"""``mcp``, ``mcp_servers`` and ``web_search`` are typed sections: a misspelt key is one sentence
naming the file and the key; the web search's key and every MCP server's header and env values
are secrets (never in a repr or a message), yet the agents receive them as the user wrote them.
``Settings(config_file=x)`` says it read x."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.errors import ConfigError
from weaver_tui.core.services import mcp_server_configs
from weaver_tui.core.settings.config import Settings, load_settings

WEB_KEY = "tvly-web-s3cret-0042"
HEADER_SECRET = "header-s3cret-0042"
ENV_SECRET = "env-s3cret-0042"
SECRETS = (WEB_KEY, HEADER_SECRET, ENV_SECRET)

SERVER = {
    "transport": "streamable_http",
    "url": "http://127.0.0.1:8765/mcp",
    "headers": {"Authorization": f"Token {HEADER_SECRET}", "X-Team": "support"},
    "approve": "always",
}
STDIO = {"command": "python", "args": ["tickets.py"], "env": {"TICKETS_TOKEN": ENV_SECRET}}
CONNECTION = {"transport": "stdio", "command": "python", "args": ["-m", "rag"],
              "env": {"RAG_TOKEN": ENV_SECRET}}  # fmt: skip
HTTP_CONNECTION = {"transport": "streamable_http", "url": "http://127.0.0.1:8000/mcp",
                   "headers": {"Authorization": f"Token {HEADER_SECRET}"}}  # fmt: skip


def _write(config_file: Path, data: dict[str, Any]) -> Path:
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    return config_file


def _full(config_file: Path) -> Path:
    return _write(config_file, {
        "mcp": {"server": "rag", "connections": {"rag": CONNECTION, "remote": HTTP_CONNECTION}},
        "mcp_servers": {"remote": SERVER, "tickets": STDIO},
        "web_search": {"enabled": True, "url": "https://search.example/api", "api_key": WEB_KEY},
    })  # fmt: skip


def _error(config_file: Path, data: dict[str, Any]) -> str:
    _write(config_file, data)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = caught.value.user_message
    assert "\n" not in message
    assert "Traceback" not in message
    return message


def test_no_secret_is_in_the_settings_repr(config_file: Path) -> None:
    settings = load_settings(config_file=_full(config_file))

    shown = repr(settings) + str(settings) + repr(mcp_server_configs(settings.mcp_servers))

    assert not [secret for secret in SECRETS if secret in shown]
    assert "support" not in shown  # every header value is hidden, not only credentials


def test_the_agents_receive_the_sections_as_the_user_wrote_them(config_file: Path) -> None:
    settings = load_settings(config_file=_full(config_file))

    given = settings.profile_settings()

    assert given["web_search"] == {
        "enabled": True, "url": "https://search.example/api", "api_key": WEB_KEY
    }  # fmt: skip
    assert given["mcp"] == {
        "server": "rag", "connections": {"rag": CONNECTION, "remote": HTTP_CONNECTION}
    }  # fmt: skip
    remote, tickets = mcp_server_configs(settings.mcp_servers)
    assert dict(remote.headers) == SERVER["headers"]
    assert dict(tickets.env) == STDIO["env"]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"mcp_servers": {"tickets": {**STDIO, "comand": "python"}}}, "mcp_servers.tickets.comand"),
        ({"mcp": {"conections": {}}}, "mcp.conections"),
        ({"mcp": {"connections": {"rag": {**CONNECTION, "agrs": []}}}}, "mcp.connections.rag.agrs"),
        ({"web_search": {"enable": True}}, "web_search.enable"),
    ],
)
def test_a_misspelt_key_is_one_sentence_naming_it_and_the_file(
    config_file: Path, data: dict[str, Any], key: str
) -> None:
    message = _error(config_file, data)

    assert f"Unknown setting {key!r}" in message
    assert str(config_file) in message


@pytest.mark.parametrize(
    "data",
    [
        {"web_search": {"enabled": True, "api_key": [WEB_KEY]}},
        {"mcp_servers": {"remote": {**SERVER, "headers": {"Authorization": [HEADER_SECRET]}}}},
        {"mcp_servers": {"tickets": {**STDIO, "env": [f"TICKETS_TOKEN={ENV_SECRET}"]}}},
        {"mcp": {"connections": {"rag": {**CONNECTION, "env": {"RAG_TOKEN": [ENV_SECRET]}}}}},
    ],
)
def test_a_wrong_secret_is_named_without_its_value(config_file: Path, data: dict[str, Any]) -> None:
    message = _error(config_file, data)

    assert message.startswith("Invalid value for ")
    assert str(config_file) in message
    assert not [secret for secret in SECRETS if secret in message]


def test_a_knowledge_server_that_is_not_configured_is_named(config_file: Path) -> None:
    message = _error(config_file, {"mcp": {"server": "rga", "connections": {"rag": CONNECTION}}})

    assert "mcp.server names 'rga'" in message
    assert ENV_SECRET not in message


def test_settings_built_directly_name_the_config_file_they_read(
    config_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named = _write(tmp_path / "named.yaml", {"ui": {"theme": "named"}})

    settings = Settings(config_file=named)

    assert (settings.ui.theme, settings.config_file) == ("named", named)
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "later.yaml"))
    assert settings.config_file == named
    assert Settings().config_file == tmp_path / "later.yaml"
