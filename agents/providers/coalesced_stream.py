"""The SDK's chat-completion stream, handing over at once every event that has arrived.

``openai.AsyncStream`` yields one chunk per server-sent event, and every layer above pays per
chunk: langchain-openai's message chunk, the callbacks, LangGraph's ``messages`` stream, the
runtime and the recorder. A fast server (or a local one) sends events faster than those layers
take them, so they wait in the socket. :class:`CoalescedChunkStream` reads the body in a task of
its own (:class:`ReadAhead`); each time its reader asks, it takes every byte received since, and
hands over the events in them merged into as few chunks as keep their meaning
(:class:`agents.providers.chunk_merge.ChunkMerger`). Nothing waits for more: a slow server's
events still come one by one, each as soon as it is read.

What the SDK's stream does is kept: ``[DONE]`` ends the stream (the rest of an HTTP/1.1 body
read, so the connection is reused), an ``{"error": ...}`` event raises ``openai.APIError`` after
the chunks before it, a broken event raises the JSON error, and a timeout or a broken connection
while reading raise ``APITimeoutError`` / ``APIConnectionError``.

The ending rules (``[DONE]``, a finish reason, a cut body, an error said in the stream) are
:class:`agents.providers.stream_rules.StreamRules`, which the sync stream shares.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import openai

from agents.providers.chunk_merge import ChunkMerger
from agents.providers.sse_events import SseEventParser
from agents.providers.stream_rules import StreamRules

try:  # the SDK's own grouping of transport errors, which this stream raises as the SDK does
    from openai._httpx2 import request_exceptions, timeout_exceptions
except ImportError:  # an SDK laid out otherwise: its own stream is used (see ``SUPPORTED``)
    SUPPORTED = False
else:
    SUPPORTED = True
"""Whether the installed SDK has the internals this stream relies on; without them the
client keeps the SDK's one-chunk-per-event stream, slower but the same chunks."""

_T = TypeVar("_T")

READ_AHEAD_BYTES = 1 << 20
"""Bytes read ahead of the stream's reader at most (then the reading task waits)."""
DRAIN_S = 0.1
"""How long the rest of a body after ``[DONE]`` is read for, as the SDK drains it."""


class ReadAhead:
    """Reads a response body in a task of its own: :meth:`take` returns every piece received
    since the last call, waiting only when there is none."""

    def __init__(self, pieces: AsyncIterator[bytes]) -> None:
        self._pieces: list[bytes] = []
        self._size = 0
        self._ended = False
        self._error: BaseException | None = None
        self._arrived = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()
        self._task = asyncio.get_running_loop().create_task(self._read(pieces))

    async def _read(self, pieces: AsyncIterator[bytes]) -> None:
        try:
            async for piece in pieces:
                self._pieces.append(piece)
                self._size += len(piece)
                self._arrived.set()
                if self._size >= READ_AHEAD_BYTES:
                    self._room.clear()
                    await self._room.wait()
        except Exception as exc:  # noqa: BLE001 (handed to the reader, raised there)
            self._error = exc
        finally:
            self._ended = True
            self._arrived.set()

    async def take(self) -> bytes | None:
        """The bytes received since the last call; ``None`` at the end of the body. A read
        that failed raises its error here, once the bytes before it were taken."""
        while not self._pieces:
            if self._ended:
                if self._error is not None:
                    raise self._error
                return None
            self._arrived.clear()
            await self._arrived.wait()
        data = self._pieces[0] if len(self._pieces) == 1 else b"".join(self._pieces)
        self._pieces.clear()
        self._size = 0
        self._room.set()
        return data

    async def drain(self, seconds: float) -> None:
        """Let the task read the rest of the body for up to ``seconds``, then stop it."""
        self._room.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._task), seconds)
        await self.stop()

    async def stop(self) -> None:
        if not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class CoalescedChunkStream(openai.AsyncStream[_T], StreamRules):
    """``openai.AsyncStream`` of chat-completion chunks, merged per read (see the module)."""

    usable = SUPPORTED
    """Whether a client should ask for this stream (see ``SUPPORTED``)."""

    async def __stream__(self) -> AsyncIterator[_T]:
        options = self._options
        if (
            options is None
            or getattr(options, "stream_mode", None) != "legacy"
            or getattr(options, "synthesize_event_and_data", True)
        ):
            async for item in super().__stream__():
                yield item
            return
        response = self.response
        process = self._client._process_response_data
        reader = ReadAhead(response.aiter_bytes())
        parser, merger = SseEventParser(), ChunkMerger()
        self._start()
        try:
            while (data := await self._take(reader)) is not None:
                for chunk in self._chunks(parser.feed(data), merger):
                    if chunk is None:  # [DONE]
                        # HTTP/1.1 reuses the connection once the body is read; HTTP/2 needn't.
                        if response.http_version == "HTTP/1.1":
                            await reader.drain(DRAIN_S)
                        return
                    yield process(data=chunk, cast_to=self._cast_to, response=response)
                for chunk in merger.take():  # the read's last run: nothing waits for more
                    yield process(data=chunk, cast_to=self._cast_to, response=response)
            self._check_end()
        finally:
            await reader.stop()
            await response.aclose()

    async def _take(self, reader: ReadAhead) -> bytes | None:
        try:
            return await reader.take()
        except timeout_exceptions() as err:
            raise openai.APITimeoutError(request=self.response.request) from err
        except request_exceptions() as err:
            raise openai.APIConnectionError(request=self.response.request) from err
