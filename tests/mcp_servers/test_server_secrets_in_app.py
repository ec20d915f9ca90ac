"""The palette's "MCP servers" list never shows a server's credentials, not even in the sentence
about a server whose header the HTTP library refused (and quoted)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_servers.conftest import SharedTickets
from tests.mcp_servers.test_servers_list_in_app import SIZE, _line, _lines, _open_list
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply
from tests.ui_app.conftest import build_services, chat_ready, new_app, send
from weaver_tui.core.services import Services

SECRET = "plain-s3cret-header-0042"


@pytest.fixture
def secret_services(
    weaver_env: Path, fake_openai: FakeOpenAI, tickets_http: SharedTickets
) -> Iterator[Services]:
    """Two servers at the same address with an Authorization header: one the HTTP library
    takes, one it refuses (a leading space)."""
    url = tickets_http.url
    servers = {
        "good": {"transport": "streamable_http", "url": url, "approve": "always",
                 "headers": {"Authorization": f"Token {SECRET}"}},
        "refused": {"transport": "streamable_http", "url": url, "approve": "always",
                    "headers": {"Authorization": f" Token {SECRET}"}},
    }  # fmt: skip
    (weaver_env / "config.yaml").write_text(json.dumps({"mcp_servers": servers}))
    built = build_services(provider="openai-compatible", base_url=fake_openai.base_url,
                           api_key="test-key", model="fake-model", http_timeout=10)  # fmt: skip
    yield built
    built.close_store()


async def test_the_list_never_shows_a_servers_header_value(
    secret_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("Hello."))
    app = new_app(secret_services)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await send(pilot, "hello")
        screen = await _open_list(pilot)
        assert "ready" in _line(screen, "good")
        refused = _line(screen, "refused")
        assert "'refused' could not be started" in refused
        assert not [line for line in _lines(screen) if SECRET in line]
