"""OpenAI SDK clients that hand streamed chat-completion chunks over as the server's JSON.

langchain-openai turns every streamed chunk back into a dict (``chunk.model_dump()`` in
``ChatOpenAI._astream``) and reads it with ``.get``. The SDK first builds each chunk as a typed
``ChatCompletionChunk`` through its generic, reflection-driven ``construct_type``: measured on
the 2-core benchmark machine, that construction was about 70 % of ``ChatOpenAI.astream``'s CPU
per token (2.3 of 3.2 s profiled over 5,000 chunks). These clients skip both steps for chat
completion chunks only; every other response (a finished completion, the model list, errors)
is built by the SDK as before. Streamed errors are still raised by the SDK's stream reader,
before a chunk is processed.
"""

from __future__ import annotations

from typing import Any, get_args, get_origin

import openai
from openai.types.chat import ChatCompletionChunk

from agents.providers.checked_stream import CheckedChunkStream
from agents.providers.coalesced_stream import CoalescedChunkStream


class _DictChunks:
    """Overrides the SDK's response processing for ``ChatCompletionChunk`` only, and puts the
    configured base URL's query on every request (:mod:`agents.providers.base_url`)."""

    _base_query = ""

    def __init__(self, *args: Any, base_query: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._base_query = base_query

    def _prepare_url(self, url: str) -> Any:
        prepared = super()._prepare_url(url)  # type: ignore[misc]
        if not self._base_query:
            return prepared
        query = self._base_query.encode()
        if prepared.query:  # a query the request's own path brought, after the base URL's
            query += b"&" + prepared.query
        return prepared.copy_with(query=query)

    def _process_response_data(self, *, data: object, cast_to: Any, response: Any) -> Any:
        if cast_to is ChatCompletionChunk and isinstance(data, dict):
            for choice in data.get("choices") or ():
                if isinstance(choice, dict):
                    # langchain indexes ``choice["delta"]``; the typed chunk always had one.
                    choice.setdefault("delta", {})
            return data
        return super()._process_response_data(  # type: ignore[misc]
            data=data, cast_to=cast_to, response=response
        )


class DictChunkOpenAI(_DictChunks, openai.OpenAI):
    """``openai.OpenAI`` streaming chat-completion chunks as dicts, each stream ended by the
    same rules as the async client's (see :mod:`agents.providers.checked_stream`)."""

    def post(self, *args: Any, **kwargs: Any) -> Any:
        stream_cls = kwargs.get("stream_cls")
        if (
            CheckedChunkStream.usable
            and get_origin(stream_cls) is openai.Stream
            and get_args(stream_cls) == (ChatCompletionChunk,)
        ):
            kwargs["stream_cls"] = CheckedChunkStream[ChatCompletionChunk]
        return super().post(*args, **kwargs)


class DictChunkAsyncOpenAI(_DictChunks, openai.AsyncOpenAI):
    """``openai.AsyncOpenAI`` streaming chat-completion chunks as dicts, the events of each
    read handed over at once (see :mod:`agents.providers.coalesced_stream`)."""

    async def post(self, *args: Any, **kwargs: Any) -> Any:
        stream_cls = kwargs.get("stream_cls")
        if (
            CoalescedChunkStream.usable
            and get_origin(stream_cls) is openai.AsyncStream
            and get_args(stream_cls) == (ChatCompletionChunk,)
        ):
            kwargs["stream_cls"] = CoalescedChunkStream[ChatCompletionChunk]
        return await super().post(*args, **kwargs)


def prepare_first_request() -> None:
    """Do now, where the model is built (off the first request's path), what the async
    client's first request would do before sending: read the platform for the SDK's headers
    (``platform.platform()`` runs ``uname -p`` in a subprocess) and import anyio's asyncio
    backend for the connection (about 20 ms on the benchmark machine)."""
    import importlib
    import platform

    platform.platform()
    importlib.import_module("anyio._backends._asyncio")
