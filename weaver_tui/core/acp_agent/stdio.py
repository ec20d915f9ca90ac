"""The agent on standard input and output, with stdout kept for the protocol alone.

Before the first message, stdout's descriptor is copied for the ACP writer and descriptor 1
is pointed at stderr: a stray ``print`` (ours, a library's, a child process's) lands on stderr
and can never corrupt the JSON-RPC stream the client reads. Logs go to the log file.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from typing import IO, TYPE_CHECKING, cast

if TYPE_CHECKING:
    from acp import Agent

    from weaver_tui.core.services import Services

STDIO_LIMIT = 50 * 1024 * 1024
"""The largest message read from the client (an embedded file travels inside one)."""


def protocol_stdout() -> IO[bytes]:
    """A private copy of stdout for the protocol; descriptor 1 (and ``sys.stdout``) now write
    to stderr."""
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    return protocol


class NotConnected(Exception):
    """stdin or stdout is not a pipe (a file, say): no client is there to talk to."""

    def __str__(self) -> str:
        return (
            "acp talks to an editor over pipes: add `weaver-tui acp` to your editor's agent "
            "servers (see the README) instead of running it with a file as input or output"
        )


async def stdio_streams(out: IO[bytes]) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=STDIO_LIMIT)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, out)
    except ValueError:  # asyncio's pipe transports take pipes, sockets and terminals only
        raise NotConnected() from None
    writer = asyncio.StreamWriter(transport, protocol, reader, loop)
    return reader, writer


async def serve_stdio(services: Services, profile: str) -> None:
    """Answer ACP on stdin/stdout until the client closes stdin. The pipes are checked
    before the ACP SDK is imported (a second of CPU): a misrun says so at once."""
    stdin, writer = await stdio_streams(protocol_stdout())
    from acp import run_agent

    from weaver_tui.core.acp_agent.agent import WeaverAcpAgent
    from weaver_tui.core.acp_agent.line_filter import pump, writer_reply

    # The SDK reads only the lines that are one JSON-RPC object; the filter answers the rest.
    reader = asyncio.StreamReader(limit=STDIO_LIMIT)
    filtering = asyncio.create_task(pump(stdin, reader, writer_reply(writer), STDIO_LIMIT))
    async with contextlib.AsyncExitStack() as resources:
        # The SDK routes only the methods an agent defines; the others answer "not found".
        agent = cast("Agent", WeaverAcpAgent(services, profile, resources))
        # The SDK routes ``session/close`` only with its unstable protocol on (it answers
        # "method not found" otherwise); the other unstable methods we do not define still
        # answer "not found".
        try:
            await run_agent(agent, writer, reader, use_unstable_protocol=True)
        finally:
            filtering.cancel()
