"""The client's lines, checked before the ACP SDK reads them.

The SDK takes every line for one JSON-RPC object: a batch (``[...]``) or any other JSON value
ends its receive loop with an ``AttributeError`` and the agent stops answering; a line that is
not JSON is dropped without a reply. So the agent reads stdin itself and hands the SDK only
lines that are one JSON object with a sane ``id`` and ``method``, nested no deeper than
:data:`MAX_NESTING` and no longer than the message limit. Every other line gets one JSON-RPC
error and the agent keeps serving:

- not JSON (or nested past what a decoder takes): ``-32700`` Parse error, ``id`` null;
- valid JSON that is not one request, notification or response (a batch, a number, an object
  with an ``id`` that is neither a string nor a number, a ``method`` that is not a string):
  ``-32600`` Invalid Request, with the line's ``id`` when it has a usable one;
- longer than the limit: ``-32600`` with the ``id`` when the line could still be read whole
  (up to :data:`READ_CEILING` times the limit), else ``null``; past that the rest of the line
  is skipped as it arrives, never held.

A line handed on keeps only the ``_meta`` keys the agent reads
(:mod:`~weaver_tui.core.acp_agent.meta_allowlist`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from storage.import_meta import nesting
from weaver_tui.core.acp_agent.meta_allowlist import allowed_meta

logger = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
MAX_NESTING = 64
"""Deepest JSON a message may nest (the protocol's messages nest a handful of levels)."""
READ_CEILING = 4
"""A line up to this many times the limit is read whole to find its ``id``; past it, skipped."""

Reply = Callable[[dict[str, Any]], None]


def _error(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _usable_id(value: Any) -> bool:
    return (
        value is None
        or isinstance(value, str)
        or (isinstance(value, int) and not isinstance(value, bool))
    )


def check_line(line: bytes, limit: int, *, cut: bool = False) -> dict[str, Any] | None:
    """``None`` when ``line`` may go to the SDK, else the error to answer it with (``cut``:
    the line was longer than could be held, and only its start is here)."""
    too_long = _error(
        INVALID_REQUEST,
        f"Invalid Request: the message is over {limit // 1_000_000} MB; send less (attach a "
        "smaller file, or the part that matters).",
    )
    if cut:
        return too_long
    if not line.strip():
        return None
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return _error(PARSE_ERROR, "Parse error: the line is not JSON; send one JSON-RPC object.")
    if nesting(message, MAX_NESTING) > MAX_NESTING:
        return _error(PARSE_ERROR, f"Parse error: the JSON nests deeper than {MAX_NESTING}.")
    if not isinstance(message, dict):
        what = "a batch" if isinstance(message, list) else "not an object"
        return _error(
            INVALID_REQUEST,
            f"Invalid Request: the line is {what}; send one JSON-RPC object per line.",
        )
    request_id = message.get("id")
    if not _usable_id(request_id):
        return _error(INVALID_REQUEST, "Invalid Request: the id must be a string or a number.")
    method = message.get("method")
    if ("method" in message and not isinstance(method, str)) or (
        method is None and "id" not in message
    ):
        return _error(
            INVALID_REQUEST,
            "Invalid Request: a request names its method as a string.",
            request_id,
        )
    if len(line) > limit:
        return {**too_long, "id": request_id}
    return None


async def _next_line(source: asyncio.StreamReader, ceiling: int) -> tuple[bytes, bool]:
    """The next line (with its newline, if it had one) and whether it was cut: past
    ``ceiling`` bytes the rest is read and dropped. ``b""`` at the end of input."""
    chunks: list[bytes] = []
    held = 0
    cut = False
    while True:
        try:
            chunk = await source.readuntil(b"\n")
            done = True
        except asyncio.LimitOverrunError as err:
            chunk = await source.readexactly(err.consumed)
            done = False
        except asyncio.IncompleteReadError as err:
            chunk = err.partial
            done = True
        if not cut and held + len(chunk) <= ceiling:
            chunks.append(chunk)
            held += len(chunk)
        else:
            cut, chunks = True, []
        if done:
            return b"".join(chunks), cut


async def pump(
    source: asyncio.StreamReader, target: asyncio.StreamReader, reply: Reply, limit: int
) -> None:
    """Move the lines of ``source`` that pass :func:`check_line` to ``target`` (which the SDK
    reads), answering the others with ``reply``, until ``source`` ends."""
    try:
        while True:
            line, cut = await _next_line(source, limit * READ_CEILING)
            if not line and not cut:
                return
            refusal = check_line(line, limit, cut=cut)
            if refusal is None:
                line = allowed_meta(line)
                target.feed_data(line if line.endswith(b"\n") else line + b"\n")
            else:
                logger.warning(
                    "acp line refused",
                    extra={"code": refusal["error"]["code"], "bytes": len(line)},
                )
                reply(refusal)
    finally:
        target.feed_eof()


def writer_reply(writer: asyncio.StreamWriter) -> Reply:
    """Answer on ``writer`` with one whole line (the SDK writes its own lines whole too)."""

    def send(message: dict[str, Any]) -> None:
        writer.write(json.dumps(message).encode("utf-8") + b"\n")

    return send
