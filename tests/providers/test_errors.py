"""Every provider fault, served for real by the fake server, becomes one typed error with one
line telling the user what to do, and never the API key."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from agents.errors import (
    ModelNotFoundError,
    ProviderAuthError,
    ProviderBadResponseError,
    ProviderNetworkError,
    ProviderRateLimitError,
    ProviderServerError,
    ProviderTimeoutError,
    WeaverError,
)
from agents.providers import ChatModelHandle, translate_provider_error
from agents.providers.errors import parse_retry_after, scrub
from agents.providers.transient_retry import MAX_TRIES, RETRIED_STATUSES
from tests.providers.conftest import TEST_KEY
from tests.support.fake_openai import FakeOpenAI, Reply


async def fail(handle: ChatModelHandle) -> tuple[WeaverError, list[str]]:
    """Stream until the model raises; the translated error and the text received before it."""
    received: list[str] = []
    failure: Exception | None = None
    try:
        async for chunk in handle.model.astream("hello"):
            if chunk.content:
                received.append(str(chunk.content))
    except Exception as exc:  # noqa: BLE001 (whatever the stream raises is what gets translated)
        failure = exc
    if failure is None:
        raise AssertionError("the stream finished without an error")
    error = handle.translate_error(failure)
    assert error is translate_provider_error(failure) or type(error) is type(
        translate_provider_error(failure)
    )
    return error, received


def assert_one_safe_line(error: WeaverError) -> None:
    message = error.user_message
    assert message
    assert "\n" not in message
    assert message.endswith(".")
    assert TEST_KEY not in message
    assert TEST_KEY not in repr(error)
    assert TEST_KEY not in str(error)
    assert "Traceback" not in message


FAULTS = [
    (Reply.unauthorized(), ProviderAuthError, ["401", "WEAVER_API_KEY", "api_key in config.yaml"]),
    (Reply.http_error(403, "forbidden"), ProviderAuthError, ["403", "WEAVER_API_KEY"]),
    # Waits longer than a call waits by itself (agents.providers.transient_retry): not retried.
    (Reply.rate_limited(retry_after=60), ProviderRateLimitError, ["429", "60 seconds"]),
    (Reply.server_error(), ProviderServerError, ["500", "try again"]),
    (
        Reply.http_error(503, "overloaded", **{"retry-after": "90"}),
        ProviderServerError,
        ["503", "90 seconds"],
    ),
    (Reply.model_not_found(), ModelNotFoundError, ["404", "model"]),
    (Reply.reset_mid_stream(after=3), ProviderNetworkError, ["127.0.0.1", "cut off"]),
    (Reply.malformed_chunk(after=2), ProviderBadResponseError, ["malformed", "base_url"]),
    (Reply(content="a b c d", stream_error_after=3), ProviderServerError, ["during the reply"]),
    (Reply.http_error(400, "context too long"), ProviderBadResponseError, ["context too long"]),
]


@pytest.mark.parametrize(
    ("reply", "error_type", "phrases"),
    FAULTS,
    ids=[f"{f[1].__name__}-{i}" for i, f in enumerate(FAULTS)],
)
async def test_fault_becomes_a_typed_error_with_a_sentence(
    reply: Reply,
    error_type: type[WeaverError],
    phrases: list[str],
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(*[reply] * MAX_TRIES)  # a transient one fails on every try

    error, _ = await fail(fake_model())

    assert type(error) is error_type
    for phrase in phrases:
        assert phrase in error.user_message
    assert_one_safe_line(error)
    # The SDK never retries (max_retries=0); the model retries a transient failure only.
    tries = len(fake_openai.chat_requests)
    assert tries == 1 or (reply.status in RETRIED_STATUSES and tries == MAX_TRIES)


async def test_rate_limit_carries_retry_after_for_the_ui(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply.rate_limited(retry_after="45.5"))

    error, _ = await fail(fake_model())

    assert isinstance(error, ProviderRateLimitError)
    assert error.retry_after == 45.5
    assert error.code == "rate_limit"


async def test_quota_exhaustion_is_told_apart_from_a_rate_limit(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    reply = Reply.rate_limited(retry_after=1)
    reply.error_message, reply.error_type = "You exceeded your current quota.", "insufficient_quota"
    fake_openai.script(*[reply] * MAX_TRIES)  # a transient one fails on every try

    error, _ = await fail(fake_model())

    assert isinstance(error, ProviderRateLimitError)
    assert "quota" in error.user_message


async def test_reset_mid_stream_keeps_what_arrived_before_it(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply(deltas=["one ", "two ", "three ", "four"], reset_after=3))

    error, received = await fail(fake_model())

    assert isinstance(error, ProviderNetworkError)
    assert "".join(received) == "one two "


async def test_first_byte_after_the_timeout_is_a_timeout_error(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply.slow_first_byte(30))

    error, _ = await fail(fake_model(timeout=0.3))

    assert isinstance(error, ProviderTimeoutError)
    assert "0.3 seconds" in error.user_message
    assert "http_timeout" in error.user_message
    assert_one_safe_line(error)


async def test_unreachable_server_is_a_network_error(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    handle = fake_model()
    port = fake_openai.port
    fake_openai.stop()

    error, _ = await fail(handle)

    assert isinstance(error, ProviderNetworkError)
    assert f"127.0.0.1:{port}" in error.user_message
    assert_one_safe_line(error)


async def test_a_key_echoed_by_the_provider_never_reaches_the_message(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(
        Reply.http_error(401, f"Incorrect API key provided: {TEST_KEY}."),
        Reply.http_error(400, f"Bad request for key {TEST_KEY} and sk-other-123456789"),
    )
    handle = fake_model()

    first, _ = await fail(handle)
    second, _ = await fail(handle)

    assert_one_safe_line(first)
    assert_one_safe_line(second)
    assert "sk-other-123456789" not in second.user_message
    assert "Bad request for key" in second.user_message


async def test_the_named_preset_is_in_the_auth_hint(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply.unauthorized())
    handle = fake_model(provider="moonshot", base_url=fake_openai.base_url)

    error, _ = await fail(handle)

    assert "The moonshot provider rejected the API key (401)" in error.user_message
    assert "MOONSHOT_API_KEY" in error.user_message


def test_transport_and_decode_errors_outside_the_sdk_are_translated() -> None:
    request = httpx.Request("POST", "http://127.0.0.1:1234/v1/chat/completions")
    cases: list[tuple[BaseException, type[WeaverError]]] = [
        (httpx.ReadTimeout("slow", request=request), ProviderTimeoutError),
        (httpx.RemoteProtocolError("peer closed", request=request), ProviderNetworkError),
        (httpx.ConnectError("refused"), ProviderNetworkError),
        (ConnectionResetError(104, "reset"), ProviderNetworkError),
        (TimeoutError(), ProviderTimeoutError),
        (json.JSONDecodeError("Expecting value", "{", 1), ProviderBadResponseError),
        (RuntimeError("something odd"), WeaverError),
    ]
    for exc, expected in cases:
        error = translate_provider_error(exc, base_url="http://127.0.0.1:1234/v1", timeout=5)
        assert type(error) is expected, (exc, error)
        assert_one_safe_line(error)
    assert "127.0.0.1:1234" in translate_provider_error(cases[1][0]).user_message


def test_a_weaver_error_passes_through_unchanged() -> None:
    original = ProviderAuthError("Already explained.")

    assert translate_provider_error(original) is original


def test_retry_after_forms() -> None:
    soon = datetime.now(UTC) + timedelta(seconds=30)
    assert parse_retry_after({"retry-after": "12"}) == 12
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert 25 <= (parse_retry_after({"retry-after": format_datetime(soon)}) or 0) <= 31
    assert parse_retry_after({"retry-after": "soonish"}) is None
    assert parse_retry_after({}) is None
    assert parse_retry_after(None) is None


def test_scrub_removes_key_shaped_text_and_keeps_one_short_line() -> None:
    text = scrub(f"bad key {TEST_KEY}\nand token abcdefghijklmnopqrstuvwxyz0123456789 " + "x" * 500)

    assert TEST_KEY not in text
    assert "abcdefghijklmnopqrstuvwxyz0123456789" not in text
    assert "\n" not in text
    assert len(text) <= 160


def test_the_placeholder_key_for_keyless_servers_is_not_a_secret() -> None:
    from pydantic import SecretStr

    from agents.providers import ProviderConfig, make_chat_model
    from agents.providers.presets import PLACEHOLDER_KEY
    from storage.secrets import scrub_text

    make_chat_model(
        ProviderConfig(provider="ollama", api_key=SecretStr(""), base_url="http://127.0.0.1:9/v1")
    )

    assert scrub_text(f"key: {PLACEHOLDER_KEY}") == f"key: {PLACEHOLDER_KEY}"
