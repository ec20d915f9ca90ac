"""The MCP servers an editor hands over with a session, as tools of that session's turns.

Each session opens its servers once, on its first prompt, and keeps them until the session
is closed or the agent exits. They are the editor user's own choice (configured in the
editor, for this agent), so their calls run without asking (``approve: always``), as a
configured server with ``approve: always`` does. A server that cannot start is left out,
saying why; the others serve.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from agents.mcp_servers import McpServerConfig, McpServerError, McpToolset, open_mcp_tools

logger = logging.getLogger(__name__)

_TRANSPORTS = {"stdio": "stdio", "http": "streamable_http"}


def client_server_configs(
    settings: list[dict[str, Any]], cwd: Path
) -> tuple[list[McpServerConfig], list[str]]:
    """The client's servers (:func:`~weaver_tui.core.acp_agent.sessions.mcp_server_settings`) as
    configs run in the session's folder, and a sentence for each that cannot be used."""
    configs: list[McpServerConfig] = []
    problems: list[str] = []
    for entry in settings:
        name = str(entry.get("name") or "unnamed")
        transport = _TRANSPORTS.get(str(entry.get("type") or "stdio"))
        if transport is None:
            problems.append(
                f"The editor's MCP server {name!r} uses {entry.get('type')}, which weaver-tui "
                "cannot reach: give it as a stdio or HTTP server instead."
            )
            continue
        try:
            configs.append(
                McpServerConfig.from_mapping(
                    name, {**entry, "transport": transport, "cwd": str(cwd), "approve": "always"}
                )
            )
        except McpServerError as exc:
            problems.append(exc.user_message)
    return configs, problems


async def open_session_tools(settings: list[dict[str, Any]], cwd: Path) -> McpToolset:
    """Start the client's servers; the tools of those that serve, and every problem."""
    configs, problems = client_server_configs(settings, cwd)
    toolset = await open_mcp_tools(configs)
    toolset.problems[:0] = problems
    logger.info(
        "acp session tools opened",
        extra={
            "servers": [c.name for c in configs],
            "tools": [t.name for t in toolset.tools],
            "problems": toolset.problems,
        },
    )
    return toolset
