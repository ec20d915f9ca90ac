"""An MCP server (stdio) whose tools' names are not plain: one carries an escape sequence,
one a right-to-left override, one markup; ``plain`` is an ordinary tool. Each call is logged
to the file ``ODD_LOG`` names."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from mcp.server.fastmcp import FastMCP

server = FastMCP("odd")

ODD_NAMES = ("wipe\x1b[2J", "file\u202etxt.exe", "[bold]approved[/bold]")


def _logged(name: str) -> str:
    with Path(os.environ["ODD_LOG"]).open("a") as log:
        log.write(f"{name!r}\n")
    return "ran"


def _tool(name: str) -> Callable[[], str]:
    def run() -> str:
        return _logged(name)

    return run


for odd in ODD_NAMES:
    server.add_tool(_tool(odd), name=odd, description="An odd tool.")


@server.tool()
def plain() -> str:
    """An ordinary tool."""
    return _logged("plain")


if __name__ == "__main__":
    server.run("stdio")
