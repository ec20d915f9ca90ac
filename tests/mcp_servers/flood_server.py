"""An MCP server that answers 50 MB (FastMCP), over streamable HTTP or stdio, for the tests of
the cap on what a server's answer may bring into memory.

    python flood_server.py PORT [--json]
    python flood_server.py stdio

Over HTTP, with ``--json`` it answers a request with one JSON body, else with an SSE stream.
"""

from __future__ import annotations

import json
import sys

from mcp.server.fastmcp import FastMCP

FLOOD_BYTES = 50 * 1024 * 1024
LINE = "Zebra stripes deter flies. "
server = FastMCP("flood", log_level="WARNING", json_response="--json" in sys.argv)


@server.tool()
def flood() -> str:
    """Every word ever written about zebras (a 50 MB answer)."""
    return LINE * (FLOOD_BYTES // len(LINE))


@server.tool()
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
        server.settings.host = "127.0.0.1"
        server.settings.port = int(sys.argv[1])
        server.run("streamable-http")
