"""Transient failures are tried again by the model itself, before its first token only, within
three tries and thirty seconds of waiting, through the real ``ChatOpenAI`` over HTTP.

The waits are recorded, not slept (``retry_waits``, see ``tests/support/retry_waits.py``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.errors import ProviderNetworkError, ProviderRateLimitError, ProviderServerError
from agents.providers import ChatModelHandle
from agents.providers.transient_retry import MAX_TRIES, WAIT_BUDGET_S
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.retry_waits import RecordedWaits, http_date


async def answer(handle: ChatModelHandle) -> str:
    """The streamed reply's text."""
    return "".join([str(chunk.content) async for chunk in handle.model.astream("hello")])


async def failure(
    handle: ChatModelHandle, on_text: Callable[[str], None] = lambda text: None
) -> tuple[Exception, str]:
    """The exception the stream ends with, and the text streamed before it (``on_text`` is
    told the text so far at each chunk)."""
    received: list[str] = []
    try:
        async for chunk in handle.model.astream("hello"):
            received.append(str(chunk.content))
            on_text("".join(received))
    except Exception as exc:  # noqa: BLE001 (what the stream raises is the point)
        return exc, "".join(received)
    raise AssertionError("the stream ended without an error")


@pytest.mark.parametrize(
    ("fault", "wait"),
    [
        (Reply.rate_limited(retry_after=3), 3.0),
        (Reply.rate_limited(retry_after=http_date(5)), 5.0),
        (Reply.http_error(503, "Service Unavailable"), 2.0),
        (Reply.http_error(529, "Overloaded"), 2.0),
        (Reply.http_error(502, "Bad Gateway", **{"retry-after": "1"}), 1.0),
        (Reply(content="never seen", reset_after=1), 2.0),  # reset after the role chunk only
    ],
    ids=["429-seconds", "429-http-date", "503", "529", "502-retry-after", "reset-before-tokens"],
)
async def test_a_transient_failure_is_tried_again_after_the_wait_it_names(
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
    retry_waits: RecordedWaits,
    fault: Reply,
    wait: float,
) -> None:
    fake_openai.script(fault, "the answer after the wait")

    text = await answer(fake_model())

    assert text == "the answer after the wait"
    assert retry_waits == [wait]
    assert len(fake_openai.chat_bodies) == 2
    assert fake_openai.chat_bodies[0] == fake_openai.chat_bodies[1]  # the same request again


async def test_a_reset_after_the_role_chunk_was_read_is_tried_again(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    # Held after the role chunk until the client has it, then reset: nothing to show yet.
    fake_openai.script(Reply(content="never shown", reset_after=1, holds=(0,)), "the answer")
    chunks: list[str] = []

    async for chunk in fake_model().model.astream("hello"):
        if not chunks:
            fake_openai.release()
        chunks.append(str(chunk.content))

    assert chunks[0] == ""  # the role chunk of the try that failed came through, empty
    assert "".join(chunks) == "the answer"
    assert retry_waits == [2.0]
    assert len(fake_openai.chat_requests) == 2


async def test_a_whole_answer_call_is_tried_again_too(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    handle = fake_model()
    fake_openai.script(Reply.rate_limited(retry_after=2), "whole")

    result = await handle.model.ainvoke("hello", stream=False)

    assert result.content == "whole"
    assert retry_waits == [2.0]
    assert [body.get("stream") for body in fake_openai.chat_bodies] == [False, False]


async def test_a_reset_after_tokens_is_not_tried_again_and_the_partial_text_is_kept(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    # Held after "two " until the client has read it: a reset can drop unread bytes.
    fake_openai.script(
        Reply(deltas=["one ", "two ", "three"], reset_after=3, holds=(2,)), "never asked"
    )

    def release_once_read(text: str) -> None:
        if text == "one two ":
            fake_openai.release()

    exc, received = await failure(fake_model(), release_once_read)

    assert isinstance(fake_model().translate_error(exc), ProviderNetworkError)
    assert received == "one two "
    assert retry_waits == []
    assert len(fake_openai.chat_requests) == 1


async def test_three_tries_at_most_then_the_last_failure_is_the_sentence(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    fake_openai.script(*[Reply.rate_limited(retry_after=1) for _ in range(4)], "never asked")

    exc, _ = await failure(fake_model())

    error = fake_model().translate_error(exc)
    assert isinstance(error, ProviderRateLimitError)
    assert len(fake_openai.chat_requests) == MAX_TRIES
    assert retry_waits == [1.0, 1.0]


async def test_a_wait_longer_than_the_budget_left_fails_at_once_naming_it(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    fake_openai.script(
        Reply.http_error(503, "Service Unavailable", **{"retry-after": http_date(120)}), "never"
    )

    exc, _ = await failure(fake_model())

    error = fake_model().translate_error(exc)
    assert isinstance(error, ProviderServerError)
    assert "2 minutes" in error.user_message or "120 seconds" in error.user_message
    assert retry_waits == []
    assert len(fake_openai.chat_requests) == 1


async def test_an_exhausted_quota_is_not_a_rate_limit_to_wait_out(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    quota = Reply.rate_limited(retry_after=1)
    quota.error_message, quota.error_type = "You exceeded your current quota.", "insufficient_quota"
    fake_openai.script(quota, "never asked")

    await failure(fake_model())

    assert retry_waits == []
    assert len(fake_openai.chat_requests) == 1


async def test_cancelling_during_the_wait_ends_the_call_without_another_request(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], retry_waits: RecordedWaits
) -> None:
    retry_waits.hold = True
    fake_openai.script(Reply.rate_limited(retry_after=20), "never asked")
    call = asyncio.create_task(answer(fake_model()))

    await retry_waits.entered.wait()
    call.cancel()

    with pytest.raises(asyncio.CancelledError):
        await call
    assert retry_waits == [20.0]
    assert len(fake_openai.chat_requests) == 1


# -- the class: any sequence of failures --------------------------------------------------------

RESET_EARLY, RESET_LATE, SAID_EARLY = 0, -1, -2
"""Not statuses: the connection reset before the first token, or after two of them; an error
said as a 200 stream's first event (its body naming a status: :data:`SAID_CODES`)."""
TRANSIENT = frozenset({408, 409, 429, 502, 503, 504, 522, 529, RESET_EARLY})
"""The class: a server that could not take the request just now, and a reset before anything
came."""
STATUSES = (408, 409, 413, 429, 500, 501, 502, 503, 504, 522, 529, 599, 400, 401, 403, 404, 422)
KINDS = (*STATUSES, RESET_EARLY, RESET_LATE, SAID_EARLY)
BODIES = ("openai", "anthropic overloaded", "plain text", "html", "empty")
SAID_CODES = (502, 429, 400, "overloaded_error", "invalid_request_error")


@dataclass(frozen=True)
class Fault:
    status: int
    retry_after: str | None
    body: str = "openai"
    said: int | str = 502

    def reply(self) -> Reply:
        if self.status == RESET_EARLY:
            return Reply(content="never shown", reset_after=1)
        if self.status == RESET_LATE:
            return Reply(deltas=["kept ", "words ", "lost"], reset_after=3)
        if self.status == SAID_EARLY:
            kind = "code" if isinstance(self.said, int) else "type"
            error = {"message": "Provider disconnected", kind: self.said}
            return Reply(events=[{"error": error}])
        headers = {"retry-after": self.retry_after} if self.retry_after is not None else {}
        if self.body == "anthropic overloaded":
            body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
            return Reply(status=self.status, error_json=body, headers=headers)
        if self.body in ("plain text", "html", "empty"):
            text = {"plain text": b"upstream connect error", "html": b"<html>Bad</html>"}
            kind = "text/html" if self.body == "html" else "text/plain"
            return Reply(
                status=self.status,
                error_text=text.get(self.body, b""),
                content_type=kind,
                headers=headers,
            )
        return Reply.http_error(self.status, f"failure {self.status}", **headers)

    @property
    def transient(self) -> bool:
        if self.status == SAID_EARLY:
            return self.said in (502, 429, "overloaded_error")
        return self.status in TRANSIENT

    def named_wait(self) -> float | None:
        """The wait the header names, as a careful reader takes it (None: none or unreadable)."""
        if self.retry_after is None or self.status <= 0:
            return None
        for number in (self.retry_after,):
            try:
                return max(0.0, float(number))
            except ValueError:
                pass
        from email.utils import parsedate_to_datetime

        from tests.support.retry_waits import NOW

        try:
            return max(0.0, parsedate_to_datetime(self.retry_after).timestamp() - NOW)
        except (TypeError, ValueError):
            return None


retry_afters = st.one_of(
    st.none(),
    st.integers(-50, 120).map(str),
    st.floats(0, 40, allow_nan=False).map(lambda f: f"{f:.2f}"),
    st.sampled_from(["soon", "", "1e9", "-0", "Wed, 99 Foo 2100 00:00:00 GMT", "99999999"]),
    st.integers(-30, 300).map(http_date),
)
faults = st.lists(
    st.builds(
        Fault,
        st.sampled_from(KINDS),
        retry_afters,
        st.sampled_from(BODIES),
        st.sampled_from(SAID_CODES),
    ),
    min_size=0,
    max_size=5,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(sequence=faults, how=st.sampled_from(["astream", "stream", "invoke"]))
async def test_any_sequence_of_failures_keeps_the_retry_guarantees(
    fake_openai: FakeOpenAI,
    fake_model: Callable[..., ChatModelHandle],
    retry_waits: RecordedWaits,
    sequence: list[Fault],
    how: str,
) -> None:
    """On every path: the async stream, and the sync ``stream`` and ``invoke``."""
    fake_openai.reset()
    retry_waits.clear()
    fake_openai.script(*[fault.reply() for fault in sequence], "the successful reply")
    handle = fake_model()

    received: list[str] = []
    outcome: str | Exception
    try:
        if how == "astream":
            async for chunk in handle.model.astream("hello"):
                received.append(str(chunk.content))
        elif how == "stream":
            received.extend(str(chunk.content) for chunk in handle.model.stream("hello"))
        else:
            received.append(str(handle.model.invoke("hello").content))
        outcome = "".join(received)
    except Exception as exc:  # noqa: BLE001 (a failure is one of the outcomes checked)
        outcome = exc

    requests = len(fake_openai.chat_requests)
    assert 1 <= requests <= MAX_TRIES
    assert sum(retry_waits) <= WAIT_BUDGET_S
    assert len(retry_waits) == requests - 1
    for fault, wait in zip(sequence, retry_waits, strict=False):
        # Only a transient failure is tried again; a reset after tokens counts as one only
        # when the reset lost them before the client read any (then nothing was shown).
        assert fault.transient or fault.status == RESET_LATE
        named = fault.named_wait()
        assert named is None or wait == pytest.approx(named)
    if isinstance(outcome, str):
        assert outcome == "the successful reply"  # nothing of a failed try reached the caller
        assert requests == len(sequence) + 1
        return
    last = sequence[requests - 1]
    error = handle.translate_error(outcome)
    if last.status == SAID_EARLY:
        assert isinstance(error, ProviderServerError)
    elif last.status <= 0:
        assert isinstance(error, ProviderNetworkError)
        assert "".join(received) in ({"kept words ", ""} if last.status == RESET_LATE else {""})
    else:
        assert getattr(outcome, "status_code", None) == last.status
    sentence = error.user_message
    assert sentence.endswith(".")
    assert "\n" not in sentence
    assert not re.search(r"\d{7}", sentence)  # an absurd wait is not repeated as a number
    given_up = (
        not last.transient
        or requests == MAX_TRIES
        or (last.named_wait() or 0.0) > WAIT_BUDGET_S - sum(retry_waits)
    )
    assert given_up
