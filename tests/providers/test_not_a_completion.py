"""A 200 answer that is not a chat completion (a web page, an empty body, a stream of only
``[DONE]``), served for real to the real ``ChatOpenAI`` client: one sentence saying what came
back and that base_url is the thing to check, not "failed unexpectedly (ValueError)"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.errors import ProviderBadResponseError
from agents.providers import ChatModelHandle
from agents.providers.openai_answers import NotAChatCompletion
from tests.support.fake_openai import FakeOpenAI, Reply

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
