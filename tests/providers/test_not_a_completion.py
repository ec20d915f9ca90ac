"""A 200 answer that is not a chat completion (a web page, an empty body, a stream of only
``[DONE]``), served for real to the real ``ChatOpenAI`` client: one sentence saying what came
back and that base_url is the thing to check, not "failed unexpectedly (ValueError)"; and a
200 JSON answer that says an error is that error, not advice to check base_url."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import openai
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.errors import ProviderBadResponseError, ProviderServerError
from agents.providers import ChatModelHandle
from agents.providers.openai_answers import NotAChatCompletion
from agents.providers.transient_retry import MAX_TRIES
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.retry_waits import RecordedWaits

PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head>"
    b"<body><h1>Welcome to nginx!</h1></body></html>\n"
)

CASES = {
    "html page": (Reply.raw(PAGE, "text/html; charset=utf-8"), ["text/html", "Welcome to nginx!"]),
    "empty json body": (Reply.raw(b"", "application/json"), ["application/json", "empty body"]),
    "json that is not a stream": (Reply.raw(b'{"ok": true}', "application/json"), ['{"ok"']),
    "empty event stream": (Reply.raw(b"", "text/event-stream"), ["no chat completion"]),
    "only done": (Reply.raw(b"data: [DONE]\n\n", "text/event-stream"), ["[DONE]"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_the_answer_is_named_and_base_url_is_the_hint(
    case: str, fake_model: Callable[..., ChatModelHandle], fake_openai: FakeOpenAI
) -> None:
    reply, words = CASES[case]
    fake_openai.script(reply)
    handle = fake_model()

    # a body that is not a completion, or langchain's ValueError for a stream with no chunk
    with pytest.raises((NotAChatCompletion, ValueError)) as caught:
        async for _ in handle.model.astream("hello"):
            pass
    error = handle.translate_error(caught.value)

    assert isinstance(error, ProviderBadResponseError)
    message = error.user_message
    assert "not a chat completion" in message or "no chat completion" in message
    assert "base_url" in message
    assert "unexpectedly" not in message
    assert "\n" not in message
    assert message.endswith(".")
    for word in words:
        assert word in message


def test_the_sync_client_checks_the_answer_too(
    fake_model: Callable[..., ChatModelHandle], fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply.raw(PAGE, "text/html"))
    handle = fake_model()

    with pytest.raises(NotAChatCompletion) as caught:
        handle.model.invoke("hello")

    assert "a page titled “Welcome to nginx!”" in handle.translate_error(caught.value).user_message


async def test_a_real_completion_still_streams(
    fake_model: Callable[..., ChatModelHandle], fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(Reply("All is well."))

    parts = [str(chunk.content) async for chunk in fake_model().model.astream("hi")]

    assert "".join(parts) == "All is well."


SAID_ERRORS = st.one_of(
    st.builds(
        lambda message, code: {"error": {"message": message, "code": code}},
        st.sampled_from(["Rate limit reached", "Provider disconnected", "Bad model"]),
        st.sampled_from([429, 502, 503, 400, "rate_limit_exceeded", None]),
    ),
    st.builds(
        lambda message: {"object": "error", "message": message, "code": 500},
        st.sampled_from(["The engine died.", "Out of memory"]),
    ),
    st.just({"error": "upstream timed out"}),
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=SAID_ERRORS, how=st.sampled_from(["astream", "invoke"]))
async def test_an_error_said_in_a_200_json_answer_is_that_error_on_every_path(
    fake_model: Callable[..., ChatModelHandle],
    fake_openai: FakeOpenAI,
    retry_waits: RecordedWaits,
    body: dict[str, Any],
    how: str,
) -> None:
    """A proxy that answers a streamed request with a 200 JSON error says an error: the
    provider's own (tried again when its code is transient), never "check base_url"."""
    fake_openai.reset()
    fake_openai.script(*[Reply.raw(json.dumps(body).encode(), "application/json")] * MAX_TRIES)
    handle = fake_model()

    async def ask() -> None:
        if how == "invoke":
            handle.model.invoke("hello")
            return
        async for _ in handle.model.astream("hello"):
            pass

    with pytest.raises(openai.APIError) as caught:
        await ask()
    error = handle.translate_error(caught.value)

    assert isinstance(error, ProviderServerError)
    assert "base_url" not in error.user_message
    assert error.user_message.endswith(".")
    code = (body.get("error") or {}).get("code") if isinstance(body.get("error"), dict) else None
    tries = len(fake_openai.chat_requests)
    transient = code in (429, 502, 503, "rate_limit_exceeded")
    assert tries == (MAX_TRIES if transient else 1)
