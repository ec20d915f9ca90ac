"""MCP fixtures: the tickets server (a real FastMCP subprocess) and a runtime that has it.

Over stdio each test starts its own tickets server (the client starts it). Over streamable
HTTP one tickets server serves every test of the worker (:func:`tickets_url`); a test keeps
its own state by naming its own log in the ``X-Tickets-Log`` header (:func:`tickets_headers`).
A test that stops its server, or reads what the server writes on stderr, uses stdio.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.mcp_servers import McpServerConfig
from tests.support.mcp_http import http_server
from tests.ui_app.conftest import weaver_env  # the app's clean environment, for pilot tests

__all__ = ["weaver_env"]

SERVER_SCRIPT = Path(__file__).with_name("tickets_server.py")
LOG_HEADER = "X-Tickets-Log"
"""The header that names the file the shared HTTP tickets server logs a test's calls to."""


@pytest.fixture
async def checkpointer(tmp_path: Path) -> AsyncIterator[object]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield saver


@pytest.fixture
def tickets_log(tmp_path: Path) -> Path:
    """The file the tickets server appends every call it ran to."""
    return tmp_path / "tickets.log"


def ran(log: Path) -> list[str]:
    """The calls the server really ran."""
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


@pytest.fixture
def tickets(tickets_log: Path) -> Callable[..., McpServerConfig]:
    """``tickets(**overrides)``: the stdio tickets server's config."""

    def build(**overrides: Any) -> McpServerConfig:
        fields: dict[str, Any] = {
            "name": "tickets",
            "command": sys.executable,
            "args": (str(SERVER_SCRIPT),),
            "env": {"TICKETS_LOG": str(tickets_log)},
            **overrides,
        }
        return McpServerConfig(**fields)

    return build


@pytest.fixture(scope="session")
def _shared_tickets_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    with http_server(["-m", "tests.mcp_servers.tickets_server"]) as served:
        yield served


@pytest.fixture
def tickets_url(_shared_tickets_server: tuple[str, subprocess.Popen[bytes]]) -> str:
    """The URL of the tickets server over streamable HTTP that this worker's tests share."""
    url, process = _shared_tickets_server
    assert process.poll() is None, "a test stopped the shared tickets server; use stdio for that"
    return url


@pytest.fixture
def tickets_headers(tickets_log: Path) -> dict[str, str]:
    """The headers that make the shared server log this test's calls to ``tickets_log``."""
    return {LOG_HEADER: str(tickets_log)}


@pytest.fixture
def tickets_http(
    tickets_url: str, tickets_headers: dict[str, str]
) -> Callable[..., McpServerConfig]:
    """``tickets_http(**overrides)``: the shared HTTP tickets server's config for this test."""

    def build(**overrides: Any) -> McpServerConfig:
        fields: dict[str, Any] = {
            "name": "tickets",
            "transport": "streamable_http",
            "url": tickets_url,
            "headers": tickets_headers,
            **overrides,
        }
        return McpServerConfig(**fields)

    return build
