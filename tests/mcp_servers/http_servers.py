"""A test's MCP server script run as a real subprocess serving streamable HTTP.

The test opens the listening socket (port 0, so the system picks a free port) and passes it
down to the script's ``--http-fd``: no other process can take the port between the choice and
the server's start, and a request made before the server accepts waits in the socket's queue.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx

STARTUP_LIMIT_S = 120.0
"""How long the first request may wait for the server (its imports, on a loaded machine)."""


@contextlib.contextmanager
def http_server(
    script: Path, *args: str, env: Mapping[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``script`` serving on a port of its own: (its ``/mcp`` URL, its process), until exit."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        fd = listening.fileno()
        process = subprocess.Popen(
            [sys.executable, str(script), "--http-fd", str(fd), *args],
            pass_fds=(fd,), env=None if env is None else dict(env),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/mcp"
    try:
        try:
            httpx.get(url, timeout=STARTUP_LIMIT_S, trust_env=False)
        except httpx.TransportError as exc:
            raise AssertionError(f"{script.name} never answered on {url} ({exc!r})") from exc
        yield url, process
    finally:
        process.terminate()
        process.wait(timeout=30)
