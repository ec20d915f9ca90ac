"""A test's MCP server run as a real subprocess serving streamable HTTP.

The test opens the listening socket (port 0, so the system picks a free port) and passes it
down to the server's ``--http-fd`` (:func:`serve_on_socket` on the server's side): no other
process can take the port between the choice and the server's start, and a request made
before the server accepts waits in the socket's queue.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from mcp.server.fastmcp import FastMCP
    from starlette.types import ASGIApp

REPO = Path(__file__).resolve().parents[2]
STARTUP_LIMIT_S = 120.0
"""How long the first request may wait for the server (its imports, on a loaded machine)."""


@contextlib.contextmanager
def http_server(args: Sequence[str]) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``python ARGS --http-fd FD``, run in the repository, serving on a port of its own:
    (its ``/mcp`` URL, its process), until the block ends."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        fd = listening.fileno()
        process = subprocess.Popen(
            [sys.executable, *args, "--http-fd", str(fd)], pass_fds=(fd,), cwd=REPO,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/mcp"
    try:
        try:
            httpx.get(url, timeout=STARTUP_LIMIT_S, trust_env=False)
        except httpx.TransportError as exc:
            raise AssertionError(f"{' '.join(args)} never answered on {url} ({exc!r})") from exc
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a connection kept it from shutting down
            process.kill()
            process.wait(timeout=30)


def serve_on_socket(server: FastMCP, argv: Sequence[str]) -> None:
    """The server's side: streamable HTTP on the listening socket that ``--http-fd FD`` in
    ``argv`` names, as FastMCP's own ``run("streamable-http")`` serves it on a port."""
    serve_app_on_socket(server.streamable_http_app(), argv)


def serve_app_on_socket(app: ASGIApp, argv: Sequence[str]) -> None:
    """:func:`serve_on_socket` for an HTTP app (one that serves several MCP servers)."""
    import anyio
    import uvicorn

    # FastMCP logs through Rich, which spends a tenth of a second drawing the traceback the SDK
    # logs each time a client's event stream ends with its session; the test discards this
    # process's stderr, so plain lines say the same for next to nothing.
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(logging.StreamHandler())

    listening = socket.socket(fileno=int(argv[list(argv).index("--http-fd") + 1]))
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5)
    anyio.run(uvicorn.Server(config).serve, [listening])
