"""The palette's "MCP servers": every configured server with its state and tools, a server that
cannot start (or dies) as its one sentence, and switches that the conversation keeps and the
next turn honours."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.mcp_servers.toolbox import OFF_KEY
from tests.mcp_servers.conftest import SERVER_SCRIPT, SharedTickets, ran
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply, ToolCall
from tests.ui_app.conftest import (
    build_services,
    chat,
    chat_ready,
    new_app,
    send,
    settle,
    wait_until,
)
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.mcp_servers import McpServersScreen

SIZE = (120, 40)


def _services(weaver_env: Path, fake_openai: FakeOpenAI, tickets: dict[str, Any]) -> Services:
    """The fake provider; the tickets server (runs without asking) and one that cannot start."""
    servers = {
        "tickets": {**tickets, "approve": "always"},
        "broken": {"command": str(weaver_env / "no-such-server")},
    }
    (weaver_env / "config.yaml").write_text(json.dumps({"mcp_servers": servers}))
    return build_services(provider="openai-compatible", base_url=fake_openai.base_url,
                          api_key="test-key", model="fake-model", http_timeout=10)  # fmt: skip


@pytest.fixture
def mcp_services(
    weaver_env: Path, fake_openai: FakeOpenAI, tickets_http: SharedTickets
) -> Iterator[Services]:
    """With the shared tickets server over streamable HTTP."""
    built = _services(weaver_env, fake_openai, tickets_http.entry())
    yield built
    built.close_store()


@pytest.fixture
def stdio_services(
    weaver_env: Path, fake_openai: FakeOpenAI, tickets_log: Path
) -> Iterator[Services]:
    """With a tickets server of the test's own over stdio (one the test may stop)."""
    tickets = {"command": sys.executable, "args": [str(SERVER_SCRIPT)],
               "env": {"TICKETS_LOG": str(tickets_log)}}  # fmt: skip
    built = _services(weaver_env, fake_openai, tickets)
    yield built
    built.close_store()


def _lines(screen: McpServersScreen) -> list[str]:
    listing = screen.listing
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def _line(screen: McpServersScreen, start: str) -> str:
    (line,) = [line for line in _lines(screen) if start in line]
    return line


async def _open_list(pilot: Any) -> McpServersScreen:
    await palette_run(pilot, "MCP servers")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, McpServersScreen))
    screen = pilot.app.screen
    assert isinstance(screen, McpServersScreen)
    await wait_until(pilot, lambda: "starting" not in " ".join(_lines(screen)))
    return screen


async def _switch(pilot: Any, screen: McpServersScreen, key: str) -> None:
    screen.listing.highlighted = screen.listing.get_option_index(key)
    await pilot.press("space")
    await pilot.pause()


def _tools_sent(fake_openai: FakeOpenAI) -> set[str]:
    body = fake_openai.chat_requests[-1].body
    assert body is not None
    return {tool["function"]["name"] for tool in body.get("tools") or []}


async def test_the_list_shows_each_server_and_a_tool_switched_off_stays_off(
    mcp_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("First."), Reply("Second."))
    app = new_app(mcp_services)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await send(pilot, "hello")
        screen = await _open_list(pilot)
        assert "ready" in _line(screen, "tickets")
        assert "5 tools" in _line(screen, "tickets")
        assert "[on]" in _line(screen, "lookup_ticket")
        broken = _line(screen, "broken")
        assert "failed" in broken
        assert "'broken' could not be started" in broken
        assert "Traceback" not in broken

        await _switch(pilot, screen, "tickets/close_ticket")
        assert "[off]" in _line(screen, "close_ticket")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, McpServersScreen))
        conversation = chat(app).state.conversation
        assert conversation is not None
        conversation_id = conversation.id
        await send(pilot, "again")
    assert "lookup_ticket" in _tools_sent(fake_openai)
    assert "close_ticket" not in _tools_sent(fake_openai)
    meta = mcp_services.store.get_conversation(conversation_id).meta
    assert meta[OFF_KEY] == ["tickets/close_ticket"]

    again = new_app(mcp_services, conversation_id=conversation_id)
    async with again.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = await _open_list(pilot)
        assert "[off]" in _line(screen, "close_ticket")
        await _switch(pilot, screen, "tickets/close_ticket")
        assert "[on]" in _line(screen, "close_ticket")
    assert OFF_KEY not in mcp_services.store.get_conversation(conversation_id).meta


async def test_a_server_switched_off_before_the_first_message_serves_no_tool(
    mcp_services: Services, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("Fine."))
    app = new_app(mcp_services)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = await _open_list(pilot)
        await _switch(pilot, screen, "tickets")
        assert "[off]" in _line(screen, "tickets")
        assert "its server is off" in _line(screen, "lookup_ticket")
        await pilot.press("escape")
        await send(pilot, "hello")
    assert not {"lookup_ticket", "close_ticket"} & _tools_sent(fake_openai)
    assert "read_file" in _tools_sent(fake_openai)  # the profile's own tools stay


async def test_a_server_that_died_says_so_and_r_starts_it_again(
    stdio_services: Services, fake_openai: FakeOpenAI, tickets_log: Path
) -> None:
    fake_openai.script(Reply(tool_calls=[ToolCall("stop_server", {})]), Reply("It died."))
    app = new_app(stdio_services)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await send(pilot, "stop it")
        assert ran(tickets_log) == ["stop_server"]
        screen = await _open_list(pilot)
        died = _line(screen, "tickets")
        assert "stopped" in died
        assert "'tickets' stopped" in died
        assert "Traceback" not in died

        screen.listing.highlighted = screen.listing.get_option_index("tickets")
        await pilot.press("r")
        await wait_until(pilot, lambda: "ready" in _line(screen, "tickets"))
        assert "lookup_ticket" in " ".join(_lines(screen))


async def test_with_no_servers_the_command_says_where_to_add_them(weaver_env: Path) -> None:
    services = build_services(provider="offline")
    app = new_app(services)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await palette_run(pilot, "MCP servers")
        await settle(pilot)
        assert not isinstance(app.screen, McpServersScreen)
        assert any("mcp_servers in config.yaml" in n.message for n in app._notifications)
    services.close_store()
