"""The user's MCP servers for a whole run: started when a turn (or the palette) first needs
them, one session each, closed with the runtime.

:func:`open_mcp_tools` is the plain form for a caller that has its own list of servers (an
editor's session over ACP): every server started, their tools, and a closer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Final

from langchain_core.tools import BaseTool

from agents.mcp_servers.connection import McpConnection
from agents.mcp_servers.servers import McpServerConfig, McpServerError
from agents.mcp_servers.tools import mcp_tool, tool_name_allowed

logger = logging.getLogger(__name__)

OFF_KEY: Final = "mcp_off"
"""Conversation meta: the servers (``name``) and tools (``name/tool``) switched off there."""


def switch_key(server: str, tool: str | None = None) -> str:
    """How a server, or one of its tools, is named in :data:`OFF_KEY`."""
    return server if tool is None else f"{server}/{tool}"


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """What one server is doing, for the list the palette shows."""

    name: str
    state: str
    problem: str | None
    tools: tuple[str, ...]
    approve: str
    profiles: tuple[str, ...] | None


@dataclass(slots=True)
class McpToolset:
    """Tools from a set of servers, with the sentences of those that failed; :meth:`aclose`
    ends every session."""

    tools: list[BaseTool]
    problems: list[str]
    connections: list[McpConnection] = field(default_factory=list)

    async def aclose(self) -> None:
        await asyncio.gather(*(c.aclose() for c in self.connections))


def _tools_of(
    connection: McpConnection, off: Collection[str] = ()
) -> tuple[list[BaseTool], list[str]]:
    """The server's tools the user lets through, and a sentence per tool left out for its
    name (:func:`tool_name_allowed`)."""
    server = connection.server
    tools: list[BaseTool] = []
    problems: list[str] = []
    for tool in connection.tools:
        if not server.offers(tool.name) or switch_key(server.name, tool.name) in off:
            continue
        if tool_name_allowed(tool.name):
            tools.append(mcp_tool(connection, tool))
        else:
            problems.append(
                f"The MCP server {server.name!r} offers a tool whose name is not letters, "
                "digits, _ or - (at most 64); it is left out (ask its author to rename it)."
            )
    return tools, problems


async def _started(connection: McpConnection) -> str | None:
    """Start ``connection``; the sentence of its failure, or ``None``."""
    try:
        await connection.start()
    except McpServerError as exc:
        return exc.user_message
    return None


async def open_mcp_tools(servers: Sequence[McpServerConfig]) -> McpToolset:
    """Start ``servers`` (together) and return their tools and a closer. A server that
    fails is left out, its sentence in ``problems``; this never raises for one."""
    connections = [McpConnection(server) for server in servers]
    failures = await asyncio.gather(*(_started(c) for c in connections))
    tools: list[BaseTool] = []
    problems = [f for f in failures if f]
    for connection in connections:
        if connection.state == "ready":
            offered, left_out = _tools_of(connection)
            tools += offered
            problems += left_out
    return McpToolset(tools, problems, connections)


class McpToolbox:
    """The app's servers (``mcp_servers`` in config.yaml) for one runtime."""

    def __init__(self, servers: Sequence[McpServerConfig] = ()) -> None:
        self.servers = list(servers)
        self._connections: dict[str, McpConnection] = {}
        self._lock = asyncio.Lock()

    def __bool__(self) -> bool:
        return bool(self.servers)

    def serving(self, profile: str, *, takes_tools: bool) -> list[McpServerConfig]:
        return [s for s in self.servers if s.serves(profile, takes_tools=takes_tools)]

    async def _connection(self, server: McpServerConfig) -> McpConnection:
        """The server's session, started now if it is not running (again, if it stopped or
        failed: the user may have fixed it since)."""
        async with self._lock:
            connection = self._connections.get(server.name)
            if connection is None or connection.state in ("stopped", "failed"):
                if connection is not None:
                    await connection.aclose()
                connection = self._connections[server.name] = McpConnection(server)
        await _started(connection)
        return connection

    async def tools_for(
        self,
        profile: str,
        *,
        takes_tools: bool,
        off: Collection[str] = (),
        taken: Collection[str] = (),
    ) -> tuple[list[BaseTool], list[str]]:
        """The tools ``profile`` gets in a conversation that switched ``off`` some, and the
        sentences of servers that could not serve. A tool named like one in ``taken`` (the
        profile's own) or an earlier server's is left out, saying so."""
        servers = [s for s in self.serving(profile, takes_tools=takes_tools) if s.name not in off]
        connections = await asyncio.gather(*(self._connection(s) for s in servers))
        await asyncio.gather(*(c.relist() for c in connections))
        tools: list[BaseTool] = []
        problems: list[str] = []
        names = set(taken)
        for connection in connections:
            if connection.problem is not None or connection.state != "ready":
                problems.append(connection.problem or f"{connection.server.name} is not running.")
                continue
            offered, left_out = _tools_of(connection, off)
            problems += left_out
            for tool in offered:
                if tool.name in names:
                    problems.append(
                        f"The MCP server {connection.server.name!r} offers {tool.name}, a name "
                        "already taken; it is left out (rename it, or list the others in tools:)."
                    )
                    continue
                names.add(tool.name)
                tools.append(tool)
        return tools, problems

    async def start_all(self) -> None:
        """Start every server (the palette's list shows their tools)."""
        await asyncio.gather(*(self._connection(s) for s in self.servers))

    async def start(self, names: Collection[str]) -> None:
        """Start the servers named (again, for one that failed or stopped); the outcome is
        in :meth:`statuses`, never an exception."""
        await asyncio.gather(*(self._connection(s) for s in self.servers if s.name in names))

    def statuses(self) -> list[ServerStatus]:
        result = []
        for server in self.servers:
            connection = self._connections.get(server.name)
            result.append(
                ServerStatus(
                    name=server.name,
                    state=connection.state if connection else "not started",
                    problem=connection.problem if connection else None,
                    tools=tuple(
                        t.name
                        for t in (connection.tools if connection else [])
                        if server.offers(t.name)
                    ),
                    approve=server.approve,
                    profiles=server.profiles,
                )
            )
        return result

    async def aclose(self) -> None:
        connections, self._connections = list(self._connections.values()), {}
        await asyncio.gather(*(c.aclose() for c in connections))
