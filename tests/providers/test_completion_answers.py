"""A whole (non-streamed) chat completion over real HTTP through the real client stack: any
reply, among other choices in any order, reads as what was sent (only choice 0 is the reply);
a 200 answer that says an error instead (an ``error`` field, vLLM's ``object: "error"``) or
holds no reply (no choice 0, its message null) ends in one typed sentence, never a bare
exception of the client library or another choice's text."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage

from agents.errors import ProviderBadResponseError, ProviderServerError, WeaverError
from tests.providers.test_wire_normalizer import check_message
from tests.providers.test_wire_streams_http import _model
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.wire_streams import SentReply, completions

HEAD = {"id": "chatcmpl-w", "object": "chat.completion", "created": 1, "model": "fake-model"}
OTHER = {"role": "assistant", "content": "OTHER CHOICE"}
ERRORS: list[dict[str, Any]] = [
    {"error": {"message": "Engine died.", "code": 500}},
    {"error": "Engine died."},
    {"object": "error", "message": "Engine died.", "type": "InternalServerError", "code": 500},
    {**HEAD, "choices": [], "error": {"message": "Provider disconnected"}},
]
NO_REPLY: list[dict[str, Any]] = [
    {**HEAD, "choices": []},
    {**HEAD, "choices": None},
    {**HEAD},
    {**HEAD, "choices": [{"index": 0, "message": None, "finish_reason": "stop"}]},
    {**HEAD, "choices": [{"index": 1, "message": OTHER, "finish_reason": "stop"}]},
]

_HTTP = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as running:
        yield running


def _answer(server: FakeOpenAI, body: dict[str, Any]) -> AIMessage:
    server.reset()
    server.script(Reply.raw(json.dumps(body).encode(), "application/json"))

    async def invoke() -> AIMessage:
        handle = _model(server)
        try:
            model = handle.model.model_copy(update={"streaming": False})
            answer = await model.ainvoke("hi")
            assert isinstance(answer, AIMessage)
            return answer
        finally:
            await handle.http_async_client.aclose()

    return asyncio.run(invoke())


@_HTTP
@given(
    case=completions(),
    before=st.lists(st.integers(1, 3), max_size=2),
    after=st.lists(st.integers(1, 3), max_size=2),
)
def test_only_choice_zero_is_the_reply(
    server: FakeOpenAI, case: tuple[SentReply, dict[str, Any]], before: list[int], after: list[int]
) -> None:
    sent, message = case
    finish = message.pop("finish_reason")
    zero = {"index": 0, "message": message, "finish_reason": finish}
    others = [{"index": i, "message": OTHER, "finish_reason": "length"} for i in before + after]
    body = {**HEAD, "choices": [*others[: len(before)], zero, *others[len(before) :]]}

    check_message(_answer(server, body), sent)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        *((b, ProviderServerError) for b in ERRORS),
        *((b, ProviderBadResponseError) for b in NO_REPLY),
    ],
)
def test_an_answer_that_is_not_one_reply_is_one_typed_sentence(
    server: FakeOpenAI, body: dict[str, Any], kind: type[WeaverError]
) -> None:
    with pytest.raises(Exception) as raised:  # noqa: PT011 (checked: it must translate)
        _answer(server, body)

    error = _model(server).translate_error(raised.value)
    assert isinstance(error, kind), (type(raised.value), error)
    assert "\n" not in error.user_message
    assert error.user_message.endswith(".")
    assert "OTHER" not in error.user_message


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def _raw_answer(server: FakeOpenAI, raw: bytes) -> AIMessage:
    server.reset()
    server.script(Reply.raw(raw, "application/json"))

    async def invoke() -> AIMessage:
        handle = _model(server)
        try:
            model = handle.model.model_copy(update={"streaming": False})
            answer = await model.ainvoke("hi")
            assert isinstance(answer, AIMessage)
            return answer
        finally:
            await handle.http_async_client.aclose()

    return asyncio.run(invoke())


@_HTTP
@given(
    body=st.one_of(
        JSON_VALUES.filter(lambda v: not isinstance(v, dict)).map(lambda v: json.dumps(v).encode()),
        completions().map(
            lambda case: json.dumps(
                {**HEAD, "choices": [{"index": 0, "message": case[1], "finish_reason": "stop"}]}
            ).encode()
        ),
    ),
    cut=st.none() | st.floats(0, 1, exclude_max=True),
)
def test_any_200_body_is_a_reply_or_one_typed_sentence_about_the_answer(
    server: FakeOpenAI, body: bytes, cut: float | None
) -> None:
    """A whole answer that is any JSON value but an object, or a good completion cut anywhere,
    is a reply (the cut left it whole) or a sentence saying the answer was not one, never an
    error the app did not expect ("failed unexpectedly")."""
    raw = body if cut is None else body[: int(cut * len(body))]
    try:
        _raw_answer(server, raw)
    except Exception as exc:  # noqa: BLE001 (checked: it must translate to the answer's shape)
        error = _model(server).translate_error(exc)
        assert isinstance(error, ProviderBadResponseError), error
        assert "\n" not in error.user_message
        assert error.user_message.endswith(".")


@_HTTP
@given(
    case=completions(),
    field=st.sampled_from(
        ["content", "refusal", "reasoning_content", "reasoning", "tool_calls", "function_call"]
    ),
    wrong=st.one_of(st.integers(), st.booleans(), st.just([5]), st.just({"a": 1})),
    in_call=st.booleans(),
)
def test_a_reply_with_a_field_of_another_type_is_one_sentence(
    server: FakeOpenAI,
    case: tuple[SentReply, dict[str, Any]],
    field: str,
    wrong: Any,
    in_call: bool,
) -> None:
    """The reply's message in an unexpected shape (a text field that is no text, calls that
    are no list of objects, a call's function or name of another type) is one sentence about
    the answer's shape, never read as something else (see ``agents.providers.chunk_shape``)."""
    _sent, message = case
    finish = message.pop("finish_reason")
    if in_call:
        message["tool_calls"] = [{"id": "c", "type": "function", "function": wrong}]
        message.pop("function_call", None)
        if isinstance(wrong, dict):
            message["tool_calls"][0]["function"] = {"name": wrong, "arguments": "{}"}
    else:
        if isinstance(wrong, list) and field == "content":
            wrong = 5  # a list is content parts
        if isinstance(wrong, list) and field == "tool_calls":
            wrong = [5]
        if isinstance(wrong, dict) and field == "function_call":
            wrong = 5  # an object is a legacy call
        message[field] = wrong
    body = {**HEAD, "choices": [{"index": 0, "message": message, "finish_reason": finish}]}

    with pytest.raises(Exception) as raised:  # noqa: PT011 (checked: it must translate)
        _answer(server, body)

    error = _model(server).translate_error(raised.value)
    assert isinstance(error, ProviderBadResponseError), error
    assert error.user_message.endswith(".")
