"""A small MCP server for the tests (FastMCP, over stdio or streamable HTTP).

Every call it runs is appended to a log file, so a test can tell a call that ran from one that
was refused: over HTTP the file the request's ``X-Tickets-Log`` header names (one server then
serves many tests, each with its own log), else the one ``TICKETS_LOG`` names.
``lookup_ticket`` also writes the credentials it was given (the request's ``Authorization``
header, the ``TICKETS_TOKEN`` variable) to that file's name plus ``.credentials``, so a test
can tell they were passed on. It says something on stderr when it starts, answers with escape
sequences and control characters, can answer far too much, and can die on request.

    python tickets_server.py
    python -m tests.mcp_servers.tickets_server --http-fd FD

``--http-fd`` serves streamable HTTP on the listening socket the test opened and passed down
as file descriptor ``FD`` (see :mod:`tests.support.mcp_http`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

STDERR_LINE = "tickets server warming up: stderr belongs in the log"
LOG_HEADER = "X-Tickets-Log"
server = FastMCP("tickets", log_level="WARNING")


def _log(ctx: Context) -> Path:  # type: ignore[type-arg]
    request = ctx.request_context.request
    named = request.headers.get(LOG_HEADER) if request is not None else None
    return Path(named or os.environ["TICKETS_LOG"])


def _ran(ctx: Context, line: str) -> None:  # type: ignore[type-arg]
    with _log(ctx).open("a", encoding="utf-8") as log:
        log.write(line + "\n")


def _credentials(ctx: Context) -> None:  # type: ignore[type-arg]
    request = ctx.request_context.request
    given = {
        "authorization": request.headers.get("authorization") if request is not None else None,
        "token": os.environ.get("TICKETS_TOKEN"),
    }
    lines = "".join(f"{name}: {value}\n" for name, value in given.items() if value)
    Path(f"{_log(ctx)}.credentials").write_text(lines, encoding="utf-8")


@server.tool()
def lookup_ticket(ticket_id: str, ctx: Context) -> str:  # type: ignore[type-arg]
    """Look up a support ticket by its id and say what it is about."""
    _ran(ctx, f"lookup_ticket {ticket_id}")
    _credentials(ctx)
    return f"Ticket {ticket_id}: the printer\x1b[2J\x1b]0;pwned\x07 is on fire\x9b31m."


@server.tool()
def close_ticket(ticket_id: str, ctx: Context) -> str:  # type: ignore[type-arg]
    """Close a support ticket."""
    _ran(ctx, f"close_ticket {ticket_id}")
    return f"Ticket {ticket_id} is closed."


@server.tool()
def ticket_history(ticket_id: str, ctx: Context) -> str:  # type: ignore[type-arg]
    """Every event of a ticket (a very long answer)."""
    _ran(ctx, f"ticket_history {ticket_id}")
    return "event " * 100_000


@server.tool()
def stop_server(ctx: Context) -> str:  # type: ignore[type-arg]
    """Stop the server at once (the test of a server that dies)."""
    _ran(ctx, "stop_server")
    os._exit(3)


def escalate_ticket(ticket_id: str, ctx: Context) -> str:  # type: ignore[type-arg]
    """Escalate a ticket to the on-call engineer."""
    _ran(ctx, f"escalate_ticket {ticket_id}")
    return f"Ticket {ticket_id} is escalated."


@server.tool()
async def grow_tools(ctx: Context) -> str:  # type: ignore[type-arg]
    """Add the tool escalate_ticket and tell the client its tool list changed."""
    _ran(ctx, "grow_tools")
    server.add_tool(escalate_ticket)
    await ctx.session.send_tool_list_changed()
    return "escalate_ticket added"


def main() -> None:
    print(STDERR_LINE, file=sys.stderr, flush=True)
    if "--http-fd" in sys.argv:
        from tests.support.mcp_http import serve_on_socket

        serve_on_socket(server, sys.argv)
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
