"""MCP fixtures: the tickets server (a real FastMCP subprocess) and a runtime that has it."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from agents.mcp_servers import McpServerConfig
from tests.ui_app.conftest import weaver_env  # the app's clean environment, for pilot tests

__all__ = ["weaver_env"]

SERVER_SCRIPT = Path(__file__).with_name("tickets_server.py")


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
