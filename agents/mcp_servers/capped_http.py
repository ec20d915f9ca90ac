"""An HTTP client for MCP servers reached over streamable HTTP whose answers cannot flood the app.

The MCP SDK reads a JSON answer whole (``response.aread()``) and an event of an SSE answer whole,
so a server answering 50 MB puts 50 MB (and its decoded copies) in memory. The client built by
:func:`capped_http_client` (the SDK's ``httpx_client_factory``) reads each message up to
:data:`MAX_MESSAGE_BYTES` (as the stdio servers are): one past that is not read further (the connection is dropped), and
the request it answered gets in its place a tool result holding the text read so far, marked as
cut (any other request gets an error saying why), so the turn goes on with what fits.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import ssl
from collections.abc import AsyncIterator
from typing import Any

import httpx

from agents.mcp_servers.capped_stdio import MAX_MESSAGE_BYTES, cut_mark, prefix_text

__all__ = ["MAX_MESSAGE_BYTES", "CappedTransport", "capped_http_client"]

logger = logging.getLogger(__name__)

_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")
_WHO = "MCP server"


def _asked(request: httpx.Request) -> tuple[Any, str]:
    """The JSON-RPC id and method of the request (``None``, ``""`` when it has none)."""
    try:
        sent = json.loads(request.content or b"null")
    except ValueError:
        return None, ""
    if not isinstance(sent, dict):
        return None, ""
    return sent.get("id"), str(sent.get("method") or "")


def _cut_answer(request: httpx.Request, head: bytes, limit: int) -> bytes:
    """The JSON-RPC response standing in for the over-long one that begins with ``head``: a
    tool call's text so far, marked as cut; for any other request an error saying why."""
    request_id, method = _asked(request)
    if method == "tools/call":
        text = prefix_text(head) + cut_mark(limit, _WHO)
        answer: dict[str, Any] = {"result": {"content": [{"type": "text", "text": text}]}}
    else:
        answer = {"error": {"code": -32000, "message": (
            f"the server's answer to {method or 'a request'} was over "
            f"{limit // (1024 * 1024)} MB, so it was not read"
        )}}  # fmt: skip
    return json.dumps({"jsonrpc": "2.0", "id": request_id, **answer}).encode()


class _CappedBody(httpx.AsyncByteStream):
    """A response body read a message at a time, each up to ``limit`` bytes."""

    def __init__(
        self, inner: httpx.AsyncByteStream, request: httpx.Request, events: bool, limit: int
    ) -> None:
        self._inner = inner
        self._request = request
        self._events = events
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        pending = b""
        async for chunk in self._inner:
            pending += chunk
            while self._events and (end := _EVENT_END.search(pending)) is not None:
                yield pending[: end.end()]
                pending = pending[end.end() :]
            if len(pending) > self._limit:
                logger.warning("mcp answer cut", extra={"url": str(self._request.url),
                                                        "bytes_read": len(pending)})  # fmt: skip
                yield self._cut(pending[: self._limit])
                return  # the rest is never read: closing drops the connection
        if pending:
            yield pending

    def _cut(self, head: bytes) -> bytes:
        if not self._events:
            return _cut_answer(self._request, head, self._limit)
        data = head.split(b"data:", 1)[-1].lstrip()
        return b"event: message\ndata: " + _cut_answer(self._request, data, self._limit) + b"\n\n"

    async def aclose(self) -> None:
        await self._inner.aclose()


@functools.cache
def _tls() -> ssl.SSLContext:
    """httpx's default TLS settings (its CA bundle, or the one ``SSL_CERT_FILE`` or
    ``SSL_CERT_DIR`` names), built once for every connection: loading the bundle takes a
    tenth of a second, which each new transport would otherwise spend again."""
    return httpx.create_ssl_context()


class CappedTransport(httpx.AsyncBaseTransport):
    """``inner`` (a plain HTTP transport by default) whose response bodies are capped."""

    def __init__(
        self, inner: httpx.AsyncBaseTransport | None = None, limit: int = MAX_MESSAGE_BYTES
    ) -> None:
        self._inner = inner or httpx.AsyncHTTPTransport(verify=_tls())
        self._limit = limit

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        assert isinstance(response.stream, httpx.AsyncByteStream)
        encoding = response.headers.get("content-encoding", "identity").lower()
        if encoding != "identity":  # asked for identity: a packed answer's size is unknown
            await response.aclose()
            raise httpx.DecodingError(
                f"the server sent its answer packed ({encoding}) although asked not to"
            )
        events = response.headers.get("content-type", "").lower().startswith("text/event-stream")
        headers = [(k, v) for k, v in response.headers.raw if k.lower() != b"content-length"]
        return httpx.Response(
            response.status_code,
            headers=headers,
            stream=_CappedBody(response.stream, request, events, self._limit),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def capped_http_client(
    headers: dict[str, str] | None = None,
    timeout: httpx.Timeout | None = None,
    auth: httpx.Auth | None = None,
) -> httpx.AsyncClient:
    """The MCP SDK's default HTTP client (same timeouts), with each answer capped at
    :data:`MAX_MESSAGE_BYTES`; proxy variables are ignored, as for the providers."""
    from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

    return httpx.AsyncClient(
        headers={**(headers or {}), "Accept-Encoding": "identity"},
        timeout=timeout or httpx.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
        auth=auth,
        transport=CappedTransport(),
        trust_env=False,
    )
