"""MCP fixtures: the tickets server (a real FastMCP subprocess) and a runtime that has it.

Over stdio each test starts its own tickets server (the client starts it). Over streamable
HTTP one tickets server serves every test of the worker (:func:`tickets_http`); a test keeps
its own state by naming its own log in the ``X-Tickets-Log`` header (:class:`SharedTickets`).
A test that stops its server, or reads what the server writes on stderr, uses stdio.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
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


@dataclass(frozen=True)
class SharedTickets:
    """The tickets server over streamable HTTP that this worker's tests share, as one test
    sees it: its ``url``, and the ``log`` it writes this test's calls to."""

    url: str
    log: Path

    @property
    def headers(self) -> dict[str, str]:
        """The header that makes the server log this test's calls to :attr:`log`."""
        return {LOG_HEADER: str(self.log)}

    def entry(self, **fields: Any) -> dict[str, Any]:
        """Its entry for ``mcp_servers`` in config.yaml, with ``fields`` (``headers`` go
        beside the log's)."""
        headers = {**self.headers, **fields.pop("headers", {})}
        return {"transport": "streamable_http", "url": self.url, "headers": headers, **fields}

    def __call__(self, **overrides: Any) -> McpServerConfig:
        """Its config for a runtime (named ``tickets`` unless ``overrides`` say otherwise)."""
        return McpServerConfig(**{"name": "tickets", **self.entry(**overrides)})


@pytest.fixture
def tickets_http(
    _shared_tickets_server: tuple[str, subprocess.Popen[bytes]], tickets_log: Path
) -> SharedTickets:
    """The shared tickets server over streamable HTTP, logging this test's calls to
    ``tickets_log``."""
    url, process = _shared_tickets_server
    assert process.poll() is None, "a test stopped the shared tickets server; use stdio for that"
    return SharedTickets(url, tickets_log)
