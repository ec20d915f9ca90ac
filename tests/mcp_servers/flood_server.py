"""An MCP server whose answers are huge (FastMCP), over streamable HTTP or stdio, for the tests
of the cap on what a server's answer may bring into memory.

    python -m tests.mcp_servers.flood_server --megabytes N --http-fd FD
    python flood_server.py stdio --megabytes N

Over HTTP (on the listening socket the test passed down, see :mod:`tests.support.mcp_http`) one
process serves both kinds of answer: at ``/mcp`` a request is answered with an SSE stream, at
``/json`` with one JSON body.
"""

from __future__ import annotations

import json
import sys
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from mcp.server.fastmcp import FastMCP

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from starlette.applications import Starlette

FLOOD_MB = int(sys.argv[sys.argv.index("--megabytes") + 1]) if "--megabytes" in sys.argv else 50
"""The size of an answer unless a call asks for another."""
LINE = "Zebra stripes deter flies. "
server = FastMCP("flood", log_level="WARNING")
json_server = FastMCP(
    "flood", log_level="WARNING", json_response=True, streamable_http_path="/json"
)


def _text(megabytes: int) -> str:
    return LINE * (megabytes * 1024 * 1024 // len(LINE))


# The big answers go as text alone: a copy as structured output would double what the server
# builds and sends, while the client reads only the first megabyte of the text either way.
def flood(megabytes: int = FLOOD_MB) -> str:
    """Every word ever written about zebras (``megabytes`` long)."""
    return _text(megabytes)


def query_knowledge_hub(query: str, top_k: int = 5) -> str:
    """Search the notes (the one result is FLOOD_MB long)."""
    text = _text(FLOOD_MB)
    return json.dumps({"results": [{"doc_id": "zoo/zebras", "title": "Zebras", "text": text}]})


def greet(name: str) -> str:
    """A short answer, read as usual."""
    return f"Hello, {name}."


for each in (server, json_server):
    each.tool(structured_output=False)(flood)
    each.tool(structured_output=False)(query_knowledge_hub)
    each.tool()(greet)


def both_kinds() -> Starlette:
    """One HTTP app serving ``server`` at ``/mcp`` and ``json_server`` at ``/json``."""
    from starlette.applications import Starlette

    apps = [server.streamable_http_app(), json_server.streamable_http_app()]

    @asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        async with server.session_manager.run(), json_server.session_manager.run():
            yield

    return Starlette(routes=[route for app in apps for route in app.routes], lifespan=lifespan)


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        server.run("stdio")
    else:
        from tests.support.mcp_http import serve_app_on_socket

        serve_app_on_socket(both_kinds(), sys.argv)
