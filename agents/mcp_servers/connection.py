"""One open session to one MCP server, kept for many calls.

An MCP session lives in anyio task scopes that must open and close in the same task, while
calls come from the graph's tool tasks. So one background task owns the session (it opens
it, lists the tools, then waits to be told to close) and the calls use the session from
their own tasks. A server that fails to start, or dies, is a status and one sentence
(:attr:`McpConnection.problem`), never an exception that escapes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Literal

from agents.mcp_servers.servers import McpServerConfig, McpServerError
from agents.mcp_servers.stderr_log import StderrToLog

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.types import CallToolResult, Tool

logger = logging.getLogger(__name__)

START_TIMEOUT_S = 30.0
State = Literal["not started", "starting", "ready", "failed", "stopped"]


def _reason(exc: BaseException) -> str:
    """The first line of the innermost cause (anyio wraps failures in exception groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:200]


@contextlib.asynccontextmanager
async def _open_session(
    server: McpServerConfig, stderr: StderrToLog | None, message_handler: Any
) -> AsyncIterator[ClientSession]:

    if server.transport == "stdio":
        from mcp.client.stdio import get_default_environment

        from agents.mcp_servers.capped_stdio import capped_stdio_session

        assert server.command is not None
        assert stderr is not None
        params = {
            "command": server.command, "args": list(server.args), "cwd": server.cwd,
            "env": {**get_default_environment(), **server.env},
        }  # fmt: skip
        opened = capped_stdio_session(
            params,
            who="MCP server",
            errlog=stderr.file,
            initialize=False,
            message_handler=message_handler,
        )
        async with opened as session:
            yield session
    else:
        from langchain_mcp_adapters.sessions import create_session

        from agents.mcp_servers.capped_http import capped_http_client

        connection: Any = {
            "transport": "streamable_http", "url": server.url, "headers": dict(server.headers),
            "httpx_client_factory": capped_http_client,
            "session_kwargs": {"message_handler": message_handler},
        }  # fmt: skip
        async with create_session(connection) as session:
            yield session


async def _call_tool(session: ClientSession, tool: str, args: dict[str, Any]) -> CallToolResult:
    """``tools/call`` without the SDK's check of structured output against the tool's schema:
    only the text blocks are read (:func:`.tools.result_text`), and an answer cut for its size
    (:mod:`.capped_http`) has no structured part."""
    from mcp import types

    request = types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=args))
    return await session.send_request(types.ClientRequest(request), types.CallToolResult)


class McpConnection:
    """The session to ``server``: :meth:`start` it, :meth:`call` its tools, :meth:`aclose`."""

    def __init__(self, server: McpServerConfig) -> None:
        self.server = server
        self.state: State = "not started"
        self.problem: str | None = None
        """Why the server is not usable, in one sentence (``None`` while it is)."""
        self.tools: list[Tool] = []
        """The tools the server listed (before the allowlist)."""
        self.listing_changed = False
        """The server said ``tools/list_changed``: :meth:`relist` reads the list again."""
        self._session: ClientSession | None = None
        self._ready: asyncio.Future[None] | None = None
        self._closing = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def usable(self) -> bool:
        return self.state in ("not started", "starting", "ready")

    async def start(self) -> None:
        """Start the server and list its tools (once); raises :class:`McpServerError`."""
        if self._task is None:
            self.state = "starting"
            self._ready = asyncio.get_running_loop().create_future()
            self._task = asyncio.create_task(self._own(), name=f"mcp-server:{self.server.name}")
        assert self._ready is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), START_TIMEOUT_S)
        except Exception as exc:
            self._fail(
                f"The MCP server {self.server.name!r} could not be started ({self._reason(exc)}); "
                "check mcp_servers in config.yaml (its output is in weaver.log)."
            )
            raise McpServerError(self.problem or "") from exc

    def _reason(self, exc: BaseException) -> str:
        """Why ``exc`` happened, in words that hold none of the server's secrets."""
        return self.server.without_secrets(_reason(exc))

    def _fail(self, sentence: str) -> None:
        if self.problem is None:
            self.problem = sentence
            logger.warning("mcp server not usable", extra={"server": self.server.name,
                                                          "error": sentence})  # fmt: skip
        self.state = "failed" if self.state in ("starting", "not started") else "stopped"

    async def _own(self) -> None:
        assert self._ready is not None
        stderr = StderrToLog(self.server.name) if self.server.transport == "stdio" else None
        try:
            async with _open_session(self.server, stderr, self._on_message) as session:
                await session.initialize()
                listed = await session.list_tools()
                self.tools = list(listed.tools)
                self._session = session
                self.state = "ready"
                self._ready.set_result(None)
                logger.info("mcp server ready", extra={"server": self.server.name,
                                                      "tools": [t.name for t in self.tools]})  # fmt: skip
                await self._closing.wait()
        except Exception as exc:  # noqa: BLE001 (any failure of the server task goes to its waiter)
            if not self._ready.done():
                self._ready.set_exception(exc)
            else:
                self._fail(f"The MCP server {self.server.name!r} stopped ({self._reason(exc)}).")
        finally:
            self._session = None
            if stderr is not None:
                stderr.close()
            if not self._ready.done():
                self._ready.set_exception(McpServerError("the session ended"))

    async def _on_message(self, message: object) -> None:
        """A server's notification: ``tools/list_changed`` marks the listing to be read again
        (by the next turn: the session's reader must not wait on a request of its own)."""
        from mcp import types

        if isinstance(message, types.ServerNotification) and isinstance(
            message.root, types.ToolListChangedNotification
        ):
            self.listing_changed = True

    async def relist(self) -> None:
        """Read the server's tools again if it said they changed. Each tool is then what the
        new listing says (an approval follows the tool's identity, not its name); a listing
        that cannot be read keeps the old one and is said in the log."""
        session = self._session
        if not self.listing_changed or session is None or self.state != "ready":
            return
        self.listing_changed = False
        try:
            listed = await asyncio.wait_for(session.list_tools(), START_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 (the old listing stays; the log says why)
            logger.warning("mcp tools not listed again", extra={"server": self.server.name,
                                                               "error": self._reason(exc)})  # fmt: skip
            return
        self.tools = list(listed.tools)
        logger.info("mcp tools listed again", extra={"server": self.server.name,
                                                    "tools": [t.name for t in self.tools]})  # fmt: skip

    # the limit is named in the sentence the user reads, so it is a parameter, not a scope
    async def call(self, tool: str, args: dict[str, Any], timeout: float) -> CallToolResult:  # noqa: ASYNC109
        """Call ``tool``; raises :class:`McpServerError` (one sentence) when the server cannot
        answer. A server that closed the connection is marked stopped."""
        session = self._session
        if session is None or not self.usable:
            raise McpServerError(
                self.problem or f"The MCP server {self.server.name!r} is not running."
            )
        try:
            return await asyncio.wait_for(_call_tool(session, tool, args), timeout)
        except TimeoutError:
            raise McpServerError(
                f"The MCP server {self.server.name!r} did not answer {tool} within {timeout:.0f} s."
            ) from None
        except Exception as exc:
            reason = self._reason(exc)
            if "closed" in reason.lower():
                self._fail(f"The MCP server {self.server.name!r} stopped ({reason}).")
            raise McpServerError(
                f"The MCP server {self.server.name!r} failed on {tool} ({reason})."
            ) from exc

    async def aclose(self) -> None:
        """End the session (the server process with it); safe to call twice."""
        task, self._task = self._task, None
        if task is None:
            return
        self._closing.set()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        if not task.done():
            task.cancel()
        if self.state in ("ready", "starting"):
            self.state = "stopped"
