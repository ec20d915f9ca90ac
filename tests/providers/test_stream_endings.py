"""How a streamed reply may end, over real HTTP through the real client stack: generated
replies in every framing (LF, CRLF, ``data:`` without its space, keep-alive comments, a byte
order mark) read as what was sent when the stream ends with ``[DONE]`` or after its finish
reason; a body that ends before both is a cut reply, never a shorter success; and an error
said mid-stream in any shape servers use raises one typed error after what came before it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.errors import ProviderNetworkError, ProviderServerError, WeaverError
from agents.providers.transient_retry import MAX_TRIES
from tests.providers.test_wire_normalizer import check_message
from tests.providers.test_wire_streams_http import _model, read
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.wire_streams import FRAMINGS, SentReply, replies, sse_body

_HTTP = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
ERRORS: list[dict[str, Any] | str] = [
    {"error": {"message": "Provider disconnected", "code": 502}},  # OpenAI, LiteLLM
    {
        "id": "gen-1",
        "object": "chat.completion.chunk",
        "error": {"code": "server_error", "message": "Provider disconnected"},
        "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}],
    },  # OpenRouter
    {
        "object": "error",
        "message": "The engine died.",
        "type": "InternalServerError",
        "param": None,
        "code": 500,
    },  # vLLM's error response
    'event: error\ndata: {"error": {"message": "Overloaded"}}',
    'event: error\ndata: {"message": "Overloaded"}',
    "event: error\ndata: upstream timed out",
]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as running:
        yield running


def _sse(server: FakeOpenAI, body: bytes) -> None:
    """``body`` as the answer to every try (an error before the reply's first token is tried
    again: each try meets it)."""
    server.reset()
    server.script(*[Reply.raw(body, "text/event-stream")] * MAX_TRIES)


def _finish_chunk(events: list[dict[str, Any]]) -> int | None:
    """The position of the first chunk that says the reply's (choice 0's) finish reason."""
    for position, event in enumerate(events):
        for choice in event.get("choices") or ():
            if choice.get("index", 0) == 0 and choice.get("finish_reason") is not None:
                return position
    return None


@_HTTP
@given(case=replies(), framing=st.sampled_from(FRAMINGS), done=st.booleans())
def test_every_framing_of_a_finished_stream_reads_as_what_was_sent(
    server: FakeOpenAI, case: tuple[SentReply, list[dict[str, Any]]], framing: str, done: bool
) -> None:
    sent, events = case
    _sse(server, sse_body(events, framing, done=done))
    try:
        message = asyncio.run(read(server, "astream"))
    except openai.APIConnectionError:
        # Only a body with neither [DONE] nor a finish reason is cut.
        assert not done
        assert sent.finish_reason is None
        return
    check_message(message, sent)


@_HTTP
@given(case=replies(), keep=st.floats(0, 1, exclude_max=True), framing=st.sampled_from(FRAMINGS))
def test_a_body_that_ends_before_its_finish_reason_is_a_cut_reply(
    server: FakeOpenAI, case: tuple[SentReply, list[dict[str, Any]]], keep: float, framing: str
) -> None:
    _sent, events = case
    finish = _finish_chunk(events)
    kept = events[: int(keep * (finish if finish is not None else len(events)))]
    if not kept:
        kept = events[:1] if finish != 0 else []
    if not kept:
        return  # the very first chunk says the finish: nothing comes before it
    _sse(server, sse_body(kept, framing, done=False))

    with pytest.raises(openai.APIConnectionError) as raised:
        asyncio.run(read(server, "astream"))
    error = _model(server).translate_error(raised.value)
    assert isinstance(error, ProviderNetworkError)


@_HTTP
@given(
    case=replies(),
    error=st.sampled_from(ERRORS),
    at=st.floats(0, 1),
    framing=st.sampled_from(FRAMINGS),
)
def test_an_error_said_mid_stream_in_any_shape_raises_one_typed_error(
    server: FakeOpenAI,
    case: tuple[SentReply, list[dict[str, Any]]],
    error: dict[str, Any] | str,
    at: float,
    framing: str,
) -> None:
    _sent, events = case
    position = int(at * len(events))
    body: list[dict[str, Any] | str] = [*events[:position], error, *events[position:]]
    _sse(server, sse_body(body, framing))

    with pytest.raises(openai.APIError) as raised:
        asyncio.run(read(server, "astream"))
    translated = _model(server).translate_error(raised.value)
    assert isinstance(translated, ProviderServerError)
    assert isinstance(translated, WeaverError)
    assert "\n" not in translated.user_message
    assert translated.user_message.endswith(".")


def test_a_byte_order_mark_cut_between_reads_is_still_dropped() -> None:
    from agents.providers.sse_events import SseEventParser

    body = sse_body([{"choices": []}], "bom")
    for cut in range(1, 5):
        parser = SseEventParser()
        got = parser.feed(body[:cut]) + parser.feed(body[cut:])
        assert [json.loads(data) if data != b"[DONE]" else None for _, data in got] == [
            {"choices": []},
            None,
        ]
