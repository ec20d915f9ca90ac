"""An MCP server that answers 50 MB (FastMCP), over streamable HTTP or stdio, for the tests of
the cap on what a server's answer may bring into memory.

    python -m tests.mcp_servers.flood_server --http-fd FD [--json]
    python flood_server.py stdio

Over HTTP (on the listening socket the test passed down, see :mod:`tests.support.mcp_http`),
with ``--json`` it answers a request with one JSON body, else with an SSE stream.
"""

from __future__ import annotations

import json
import sys

from mcp.server.fastmcp import FastMCP

FLOOD_BYTES = 50 * 1024 * 1024
LINE = "Zebra stripes deter flies. "
server = FastMCP("flood", log_level="WARNING", json_response="--json" in sys.argv)
# The big answers go as text alone: a copy as structured output would double what the server
# builds and sends, while the client reads only the first megabyte of the text either way.


@server.tool(structured_output=False)
def flood() -> str:
    """Every word ever written about zebras (a 50 MB answer)."""
    return LINE * (FLOOD_BYTES // len(LINE))


@server.tool(structured_output=False)
def query_knowledge_hub(query: str, top_k: int = 5) -> str:
    """Search the notes (the one result is 50 MB long)."""
    text = LINE * (FLOOD_BYTES // len(LINE))
    return json.dumps({"results": [{"doc_id": "zoo/zebras", "title": "Zebras", "text": text}]})


@server.tool()
def greet(name: str) -> str:
    """A short answer, read as usual."""
    return f"Hello, {name}."


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        server.run("stdio")
    else:
        from tests.support.mcp_http import serve_on_socket

        serve_on_socket(server, sys.argv)
