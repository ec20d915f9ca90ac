"""The retry of a stream, over generated streams: a try is repeated only when it failed before
yielding anything of the reply, never more than three tries, and what the caller gets of the
reply comes from one try alone (no text twice, no tool call from a try that failed)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGenerationChunk

from agents.providers.retried_call import RetriedCall, StatusState, retried_stream
from agents.providers.thinking import REASONING_KEY
from agents.providers.transient_retry import MAX_TRIES, WAIT_BUDGET_S
from tests.support.retry_waits import RecordedWaits

KINDS = ("empty", "text", "tool call", "reasoning", "finish")


def chunk(kind: str, attempt: int) -> ChatGenerationChunk:
    tag = f"try{attempt}"
    if kind == "text":
        return ChatGenerationChunk(message=AIMessageChunk(content=tag))
    if kind == "tool call":
        call = tool_call_chunk(name="search", args="{}", id=tag, index=0)
        return ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=[call]))
    if kind == "reasoning":
        message = AIMessageChunk(content="", additional_kwargs={REASONING_KEY: tag})
        return ChatGenerationChunk(message=message)
    if kind == "finish":
        info = {"finish_reason": "stop"}
        return ChatGenerationChunk(message=AIMessageChunk(content=""), generation_info=info)
    return ChatGenerationChunk(message=AIMessageChunk(content=""))


@dataclass(frozen=True)
class Attempt:
    kinds: tuple[str, ...]
    fails: bool


attempts = st.lists(
    st.builds(Attempt, st.lists(st.sampled_from(KINDS), max_size=5).map(tuple), st.booleans()),
    min_size=1,
    max_size=5,
)


def tag_of(got: ChatGenerationChunk) -> str | None:
    """Which try a chunk with substance came from (None for an empty chunk)."""
    message = got.message
    if message.content:
        return str(message.content)
    if message.additional_kwargs:
        return str(message.additional_kwargs[REASONING_KEY])
    calls = getattr(message, "tool_call_chunks", None)
    if calls:
        return str(calls[0]["id"])
    return "finish" if got.generation_info else None


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=attempts)
async def test_a_stream_is_tried_again_only_before_anything_of_the_reply(
    retry_waits: RecordedWaits, script: list[Attempt]
) -> None:
    retry_waits.clear()
    script = [*script, Attempt(("text", "finish"), fails=False)]  # the server's answer at last
    started: list[int] = []
    lines: list[tuple[str, StatusState]] = []

    async def start(_messages: list[BaseMessage]) -> AsyncIterator[ChatGenerationChunk]:
        attempt = len(started)
        started.append(attempt)
        for kind in script[attempt].kinds:
            yield chunk(kind, attempt)
        if script[attempt].fails:
            raise ConnectionResetError("connection reset by peer")

    got: list[ChatGenerationChunk] = []
    failed = False
    call = RetriedCall(notify=lambda text, state: lines.append((text, state)))
    try:
        async for each in retried_stream([], start, call):
            got.append(each)
    except ConnectionResetError:
        failed = True

    assert 1 <= len(started) <= MAX_TRIES
    assert sum(retry_waits) <= WAIT_BUDGET_S
    for attempt in started[:-1]:  # every try that was followed by another
        assert script[attempt].fails
        assert set(script[attempt].kinds) <= {"empty"}  # it had yielded nothing of the reply
    last = started[-1]
    tags = {tag_of(each) for each in got} - {None, "finish"}
    assert tags <= {f"try{last}"}  # the reply comes from the last try alone
    if script[last].fails:
        assert failed
        retried_out = last == MAX_TRIES - 1 and set(script[last].kinds) <= {"empty"}
        assert retried_out or not set(script[last].kinds) <= {"empty"}
    else:
        assert not failed
        substance = [k for k in script[last].kinds if k != "empty"]
        assert len([each for each in got if tag_of(each) is not None]) == len(substance)
    if len(started) > 1:
        assert lines[0][1] == "running"
        # "answered" once the last try yields anything (even if it breaks later), else "gave up"
        answered = not failed or not set(script[last].kinds) <= {"empty"}
        assert lines[-1][1] == ("done" if answered else "error")
