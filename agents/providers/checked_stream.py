"""The SDK's sync chat-completion stream, ended by the app's stream rules.

``openai.Stream`` ends quietly when a body stops before ``[DONE]`` and reads a chunk whose
``object`` is ``"error"`` as a chunk, so a cut reply, or vLLM's error response, would reach a
sync ``stream`` / ``invoke`` as a shorter success. :class:`CheckedChunkStream` reads the body
as the async stream does (:mod:`agents.providers.coalesced_stream`), with the same rules
(:class:`agents.providers.stream_rules.StreamRules`): every path of a model call ends a stream
alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

import openai

from agents.providers.chunk_merge import ChunkMerger
from agents.providers.sse_events import SseEventParser
from agents.providers.stream_rules import StreamRules

try:  # the SDK's own grouping of transport errors, which this stream raises as the SDK does
    from openai._httpx2 import request_exceptions, timeout_exceptions
except ImportError:  # an SDK laid out otherwise: its own stream is used (see ``usable``)
    SUPPORTED = False
else:
    SUPPORTED = True

_T = TypeVar("_T")


class CheckedChunkStream(openai.Stream[_T], StreamRules):
    """``openai.Stream`` of chat-completion chunks under :class:`StreamRules`."""

    usable = SUPPORTED
    """Whether a client should ask for this stream (the SDK has the internals it reads)."""

    def __stream__(self) -> Iterator[_T]:
        options = self._options
        if (
            options is None
            or getattr(options, "stream_mode", None) != "legacy"
            or getattr(options, "synthesize_event_and_data", True)
        ):
            yield from super().__stream__()
            return
        response = self.response
        process = self._client._process_response_data
        parser, merger = SseEventParser(), ChunkMerger()
        self._start()
        try:
            for data in self._reads():
                for chunk in self._chunks(parser.feed(data), merger):
                    if chunk is None:  # [DONE]
                        return
                    yield process(data=chunk, cast_to=self._cast_to, response=response)
                for chunk in merger.take():
                    yield process(data=chunk, cast_to=self._cast_to, response=response)
            self._check_end()
        finally:
            response.close()

    def _reads(self) -> Iterator[bytes]:
        """The body's bytes as they arrive, a transport failure raised as the SDK raises it."""
        try:
            yield from self.response.iter_bytes()
        except timeout_exceptions() as err:
            raise openai.APITimeoutError(request=self.response.request) from err
        except request_exceptions() as err:
            raise openai.APIConnectionError(request=self.response.request) from err
