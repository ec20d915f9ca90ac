"""The tickets server over HTTP that a worker's tests share keeps each test's calls apart (the
log its request names), and a test server that cannot start fails its fixture in one line
instead of leaving the test waiting."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.mcp_servers import McpServerConfig
from agents.mcp_servers.connection import McpConnection
from tests.mcp_servers.conftest import LOG_HEADER, SharedTickets, ran
from tests.support.mcp_http import http_server


async def test_each_connection_s_calls_go_to_the_log_its_requests_name(
    tickets_http: SharedTickets, tmp_path: Path
) -> None:
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    connections = [
        McpConnection(McpServerConfig(name=f"tickets-{n}", transport="streamable_http",
                                      url=tickets_http.url, headers={LOG_HEADER: str(log)}))
        for n, log in enumerate(logs)
    ]  # fmt: skip
    try:
        for connection in connections:
            await connection.start()
        await connections[0].call("lookup_ticket", {"ticket_id": "1"}, 60)
        await connections[1].call("close_ticket", {"ticket_id": "2"}, 60)
        await connections[0].call("close_ticket", {"ticket_id": "3"}, 60)
    finally:
        for connection in connections:
            await connection.aclose()
    assert ran(logs[0]) == ["lookup_ticket 1", "close_ticket 3"]
    assert ran(logs[1]) == ["close_ticket 2"]


def test_a_server_that_exits_at_start_fails_in_one_sentence() -> None:
    never = r"-c raise SystemExit\(3\) never answered on http"
    with pytest.raises(AssertionError, match=never), http_server(["-c", "raise SystemExit(3)"]):
        pass
