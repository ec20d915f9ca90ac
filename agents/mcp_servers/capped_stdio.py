"""A stdio MCP session whose server cannot flood the app: each message it sends is read up to
:data:`MAX_MESSAGE_BYTES`, and one past that is cut there and answered in its place. Both the
knowledge server and the user's own stdio servers (``mcp_servers``) go through it.

The MCP SDK's stdio transport keeps a whole line in memory (rebuilding the string for every
chunk read, so a 50 MB answer costs minutes of copying). Here a line is gathered as a list of
chunks while it is short; past the cap its remainder is dropped as it arrives, and the request
it answered gets a tool result holding the text read so far, marked as cut, so the turn goes on
with what fits.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import subprocess
from collections.abc import AsyncIterator, Mapping
from typing import Any, TextIO

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp import ClientSession, types
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 1024 * 1024
"""The longest message read from a stdio MCP server; a longer answer is cut and marked."""

_ID = re.compile(rb'"id"\s*:\s*(\d+|"(?:[^"\\]|\\.){0,200}")')
_FIRST_TEXT = re.compile(rb'"text"\s*:\s*"')
_STRING_BODY = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*')
"""A JSON string's body, unrolled so that a megabyte of plain text costs no backtracking stack."""


def cut_mark(size: int, who: str = "knowledge server") -> str:
    return (
        f"\n[cut: the {who}'s answer was over {size // (1024 * 1024)} MB; "
        "only its beginning is kept]"
    )


def prefix_text(head: bytes) -> str:
    """The readable start of the first ``"text"`` string in a cut JSON message."""
    found = _FIRST_TEXT.search(head)
    if found is None:
        return ""
    body = head[found.end() :].decode("utf-8", errors="ignore")
    inside = _STRING_BODY.match(body)
    text = inside.group(0) if inside else ""
    for cut in range(7):  # the cut may fall inside an escape such as \u00e9
        with contextlib.suppress(ValueError):
            return str(json.loads(f'"{text[: len(text) - cut]}"'))
    return ""


def _cut_answer(head: bytes, who: str) -> SessionMessage | None:
    """The tool result standing in for the over-long message that begins with ``head``."""
    found = _ID.search(head[:1000])
    if found is None:
        return None
    result = types.CallToolResult(
        content=[types.TextContent(type="text", text=prefix_text(head) + cut_mark(len(head), who))]
    )
    response = types.JSONRPCResponse(
        jsonrpc="2.0", id=json.loads(found.group(1)), result=result.model_dump(by_alias=True)
    )
    return SessionMessage(types.JSONRPCMessage(response))


async def _deliver(line: bytes, to: MemoryObjectSendStream[SessionMessage | Exception]) -> None:
    try:
        message = types.JSONRPCMessage.model_validate_json(line)
    except ValueError as exc:
        await to.send(exc)
        return
    await to.send(SessionMessage(message))


async def _read_lines(
    stdout: Any, to: MemoryObjectSendStream[SessionMessage | Exception], who: str
) -> None:
    """Split the server's output into messages, each read up to :data:`MAX_MESSAGE_BYTES`."""
    pieces: list[bytes] = []
    size = 0
    async with to:
        async for chunk in stdout:
            while chunk:
                line_end = chunk.find(b"\n")
                piece = chunk if line_end < 0 else chunk[:line_end]
                chunk = b"" if line_end < 0 else chunk[line_end + 1 :]
                if size <= MAX_MESSAGE_BYTES:
                    pieces.append(piece[: MAX_MESSAGE_BYTES + 1 - size])
                size += len(piece)
                if line_end < 0:
                    break
                line = b"".join(pieces)
                if size > MAX_MESSAGE_BYTES:
                    logger.warning("mcp answer cut", extra={"server": who, "bytes": size})
                    if (cut := _cut_answer(line, who)) is not None:
                        await to.send(cut)
                elif line.strip():
                    await _deliver(line, to)
                pieces, size = [], 0


async def _write_lines(process: Any, messages: Any) -> None:
    async with messages:
        async for message in messages:
            text = message.message.model_dump_json(by_alias=True, exclude_none=True)
            await process.stdin.send((text + "\n").encode())


async def _log_errors(stderr: Any) -> None:
    """The server's stderr, to the log (never over the screen), a line of 500 characters at
    most and 200 lines per session."""
    logged = 0
    async for chunk in stderr:
        for line in bytes(chunk).decode(errors="replace").splitlines():
            if line.strip() and logged < 200:
                logger.info("knowledge server says", extra={"line": line[:500]})
                logged += 1


def _environment(given: Mapping[str, str] | None) -> dict[str, str]:
    """The server's environment: the SDK's minimal one, or the configured one (its ``${VAR}``
    references expanded where the config is read: :mod:`.references`)."""
    if given is None:
        return get_default_environment()
    return {key: str(value) for key, value in given.items()}


@contextlib.asynccontextmanager
async def capped_stdio_session(
    connection: Mapping[str, Any],
    *,
    who: str = "knowledge server",
    errlog: TextIO | None = None,
    initialize: bool = True,
    message_handler: Any = None,
) -> AsyncIterator[ClientSession]:
    """A session to the stdio server ``connection`` names (``command``, ``args``, ``env``,
    ``cwd``), initialised unless ``initialize`` is false; the server is stopped when the block
    ends. ``who`` names the server in the mark of a cut answer; its stderr goes to ``errlog``
    when given, else to the log; ``message_handler`` gets the server's notifications."""
    command = [str(connection["command"]), *map(str, connection.get("args") or [])]
    process = await anyio.open_process(
        command,
        env=_environment(connection.get("env")),
        cwd=connection.get("cwd"),
        stderr=errlog if errlog is not None else subprocess.PIPE,
    )
    from_server, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, to_server = anyio.create_memory_object_stream[SessionMessage](0)
    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_read_lines, process.stdout, from_server, who)
            tasks.start_soon(_write_lines, process, to_server)
            if process.stderr is not None:
                tasks.start_soon(_log_errors, process.stderr)
            try:
                async with ClientSession(read, write, message_handler=message_handler) as session:
                    if initialize:
                        await session.initialize()
                    yield session
            finally:
                tasks.cancel_scope.cancel()
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
            await process.aclose()
