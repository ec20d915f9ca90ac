"""The wire normalizer's guarantee over real HTTP: generated framings of a reply, sent by the
local server as SSE and read by the real client stack (``ReasoningChatOpenAI`` with its SDK
clients, the coalescing stream, langchain-openai), via ``astream`` and ``ainvoke``.

One server serves every example; each example builds its model anew (a model's async client
belongs to the event loop that first uses it).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AIMessageChunk
from pydantic import SecretStr

from agents.errors import WeaverError
from agents.providers import ProviderConfig, make_chat_model
from agents.providers.thinking import REASONING_KEY
from tests.providers.test_wire_normalizer import check_message
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.wire_streams import SentReply, completions, replies


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as running:
        yield running


def _model(server: FakeOpenAI) -> Any:
    config = ProviderConfig(
        provider="openai-compatible",
        base_url=server.base_url,
        api_key=SecretStr("sk-test"),
        model="fake-model",
        timeout=5.0,
    )
    return make_chat_model(config)


async def read(server: FakeOpenAI, how: str) -> AIMessage | AIMessageChunk:
    handle = _model(server)
    try:
        if how == "ainvoke":
            answer = await handle.model.ainvoke("hi")
            assert isinstance(answer, AIMessage)
            return answer
        total: AIMessageChunk | None = None
        async for chunk in handle.model.astream("hi"):
            total = chunk if total is None else total + chunk
        assert total is not None
        return total
    finally:
        await handle.http_async_client.aclose()


_HTTP = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def read_sync(server: FakeOpenAI) -> AIMessageChunk:
    """The sync ``stream`` path, merged."""
    handle = _model(server)
    total: AIMessageChunk | None = None
    for chunk in handle.model.stream("hi"):
        total = chunk if total is None else total + chunk
    assert total is not None
    return total


@_HTTP
@given(case=replies(), how=st.sampled_from(["astream", "ainvoke", "stream"]))
def test_any_framing_over_http_merges_to_what_was_sent(
    server: FakeOpenAI, case: tuple[SentReply, list[dict[str, Any]]], how: str
) -> None:
    sent, events = case
    server.reset()
    server.script(Reply(events=events))
    message = read_sync(server) if how == "stream" else asyncio.run(read(server, how))
    check_message(message, sent)


@_HTTP
@given(case=replies(), cut=st.floats(0, 1, exclude_max=True))
def test_a_stream_cut_at_any_byte_gives_a_prefix_of_the_reply_or_one_sentence(
    server: FakeOpenAI, case: tuple[SentReply, list[dict[str, Any]]], cut: float
) -> None:
    """The server ends the body early, anywhere: what arrives is a prefix of what was sent (no
    finish reason unless the chunk carrying it arrived), or the failure is one typed error."""
    sent, events = case
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    server.reset()
    server.script(Reply(events=events, cut_at=int(cut * len(body))))
    try:
        message = asyncio.run(read(server, "astream"))
    except Exception as exc:  # noqa: BLE001 (checked: it must translate to one sentence)
        error = _model(server).translate_error(exc)
        assert isinstance(error, WeaverError)
        assert error.args[0].endswith(".")
        return
    if sent.reasoning_way != "think":
        assert sent.answer.startswith(message.content)  # type: ignore[arg-type]
        assert sent.reasoning.startswith(message.additional_kwargs.get(REASONING_KEY) or "")
    names = [c["name"] for c in message.tool_calls]
    assert names == [name for name, _ in sent.calls][: len(names)]
    reason = message.response_metadata.get("finish_reason")
    assert reason in (None, sent.finish_reason)


@_HTTP
@given(case=completions())
def test_any_whole_completion_reads_as_what_was_sent(
    server: FakeOpenAI, case: tuple[SentReply, dict[str, Any]]
) -> None:
    """A non-streamed completion (``streaming=False``) is read as a stream is."""
    sent, message = case
    server.reset()
    server.script(Reply(completion=message))

    async def invoke() -> AIMessage:
        handle = _model(server)
        try:
            model = handle.model.model_copy(update={"streaming": False})
            answer = await model.ainvoke("hi")
            assert isinstance(answer, AIMessage)
            return answer
        finally:
            await handle.http_async_client.aclose()

    check_message(asyncio.run(invoke()), sent)


@_HTTP
@given(case=completions(), how=st.sampled_from(["astream", "ainvoke", "stream"]))
def test_a_whole_completion_sent_for_a_streamed_request_reads_as_what_was_sent(
    server: FakeOpenAI, case: tuple[SentReply, dict[str, Any]], how: str
) -> None:
    """A server that ignores ``stream: true`` and answers with the whole completion (JSON)
    gives the reply it sent, on every path, as a stream of one chunk."""
    sent, message = case
    finish = message.pop("finish_reason")
    body = {
        "id": "chatcmpl-w",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    server.reset()
    server.script(Reply.raw(json.dumps(body).encode(), "application/json"))
    got = read_sync(server) if how == "stream" else asyncio.run(read(server, how))
    check_message(got, sent)
    assert server.chat_bodies[0]["stream"] is True
