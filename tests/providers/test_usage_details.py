"""Usage details over the wire: cached and reasoning tokens and a cost, as servers send them.

The class: whatever a server puts in ``usage`` (fields missing, null, of the wrong type, or a
``usage`` that is not an object at all), a model call never fails on it, and what the app reads
is exactly the well-typed fields: each count a non-negative integer, ``cost`` a finite
non-negative number, anything else not reported. Summed over calls, counts and costs are exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessageChunk, HumanMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from pydantic import SecretStr

from agents.providers import ChatModelHandle
from agents.providers.openai_reasoning import ReasoningChatOpenAI
from agents.runtime.events import Usage
from agents.runtime.usage_tally import UsageTally, usage_of
from tests.support.fake_openai import FakeOpenAI, Reply

DETAILS = {
    "prompt_tokens_details": {"cached_tokens": 30, "audio_tokens": None},
    "completion_tokens_details": {"reasoning_tokens": 4},
    "cost": 0.00125,
}


async def _streamed(handle: ChatModelHandle) -> AIMessageChunk:
    whole: AIMessageChunk | None = None
    async for chunk in handle.model.astream([HumanMessage("hi")]):
        assert isinstance(chunk, AIMessageChunk)
        whole = chunk if whole is None else whole + chunk
    assert whole is not None
    return whole


@pytest.mark.parametrize("where", ["final chunk", "finish chunk", "in choice"])
async def test_a_streamed_call_reports_cached_and_reasoning_tokens_and_cost(
    where: str, fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply("Hello.", usage=(50, 9), usage_extra=DETAILS, usage_at=where))

    message = await _streamed(fake_model())

    assert usage_of(message) == Usage(50, 9, 59, 30, 4, 0.00125)


async def test_a_finished_completion_reports_them_too(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply("Hello.", usage=(50, 9), usage_extra=DETAILS))
    model = fake_model().model.model_copy(update={"streaming": False})

    message = await model.ainvoke([HumanMessage("hi")])

    assert fake_openai.last_body.get("stream") is not True
    assert usage_of(message) == Usage(50, 9, 59, 30, 4, 0.00125)


@pytest.mark.parametrize("streaming", [True, False])
async def test_garbage_in_usage_is_not_reported_and_never_fails_the_call(
    streaming: bool, fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    garbage = {
        "prompt_tokens_details": "n/a",
        "completion_tokens_details": {"reasoning_tokens": "many"},
        "cost": "free",
    }
    fake_openai.script(Reply("Hello.", usage=(50, 9), usage_extra=garbage, usage_at="finish chunk"))
    model = fake_model().model.model_copy(update={"streaming": streaming})

    message = await model.ainvoke([HumanMessage("hi")])

    assert message.content == "Hello."
    assert usage_of(message) == Usage(50, 9, 59)


# -- generated usage objects (no HTTP: the same two entry points the wire reaches) ------------

_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(), max_size=2),
    st.integers(min_value=-(10**6), max_value=-1),
)
_COUNT = st.integers(min_value=0, max_value=10**9)
_COST = st.decimals(min_value=0, max_value=1000, places=6, allow_nan=False).map(float)


def _field(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field as a server may send it: absent (the marker), well typed, or junk."""
    return st.one_of(st.just(...), good, _JUNK)


def _details(key: str) -> st.SearchStrategy[Any]:
    return st.one_of(st.just(...), _JUNK, st.fixed_dictionaries({}, optional={key: _field(_COUNT)}))


_USAGE = st.fixed_dictionaries(
    {},
    optional={
        "prompt_tokens": _field(_COUNT),
        "completion_tokens": _field(_COUNT),
        "total_tokens": _field(_COUNT),
        "prompt_tokens_details": _details("cached_tokens"),
        "completion_tokens_details": _details("reasoning_tokens"),
        "cost": _field(_COST),
    },
).map(lambda d: {k: v for k, v in d.items() if v is not ...})


def _count(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if isinstance(value, float) and math.isfinite(value) and value >= 0 and value.is_integer():
        return int(value)
    return value if ok else None


def _expected(usage: Any) -> Usage | None:
    """What the app must read from ``usage``: only the well-typed fields (independently of the
    code under test)."""
    if not isinstance(usage, dict):
        return None
    prompt_details = usage.get("prompt_tokens_details")
    completion_details = usage.get("completion_tokens_details")
    cached = (
        _count(prompt_details.get("cached_tokens")) if isinstance(prompt_details, dict) else None
    )
    reasoning = (
        _count(completion_details.get("reasoning_tokens"))
        if isinstance(completion_details, dict)
        else None
    )
    cost = usage.get("cost")
    good_cost = (
        float(cost)
        if isinstance(cost, int | float)
        and not isinstance(cost, bool)
        and math.isfinite(cost)
        and cost >= 0
        else None
    )
    kept = [_count(usage.get(k)) for k in ("prompt_tokens", "completion_tokens", "total_tokens")]
    if all(v is None for v in kept) and cached is None and reasoning is None and good_cost is None:
        return None
    prompt, completion, total = (v or 0 for v in kept)
    if kept[2] is None:
        total = prompt + completion  # as ChatOpenAI completes it
    return Usage(prompt, completion, total, cached, reasoning, good_cost)


_MODEL = ReasoningChatOpenAI(
    model="m", api_key=SecretStr("sk-test"), base_url="http://127.0.0.1:9/v1"
)


def _stream_message(usage: Any) -> AIMessageChunk:
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [],
        "usage": usage,
    }
    generation = _MODEL._convert_chunk_to_generation_chunk(chunk, AIMessageChunk, {})
    assert generation is not None
    assert isinstance(generation.message, AIMessageChunk)
    return generation.message


def _completion_message(usage: Any) -> Any:
    response = {
        "id": "c",
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}],
        "usage": usage,
    }
    return _MODEL._create_chat_result(response).generations[0].message


@settings(max_examples=150, deadline=None)
@given(usage=st.one_of(_USAGE, _JUNK))
def test_any_usage_reads_as_exactly_its_well_typed_fields(usage: Any) -> None:
    expected = _expected(usage)
    assert usage_of(_stream_message(usage)) == expected
    assert usage_of(_completion_message(usage)) == expected


@settings(max_examples=100, deadline=None)
@given(usages=st.lists(_USAGE, min_size=1, max_size=6))
def test_a_turns_usage_is_the_exact_sum_over_its_calls(usages: list[dict[str, Any]]) -> None:
    tally = UsageTally()
    for usage in usages:
        message = _stream_message(usage)
        tally.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]))
    read = [u for u in map(_expected, usages) if u is not None]
    assert tally.calls == len(read)
    assert tally.usage.input_tokens == sum(u.input_tokens for u in read)
    assert tally.usage.output_tokens == sum(u.output_tokens for u in read)
    assert tally.usage.total_tokens == sum(u.total_tokens for u in read)
    for key in ("cached_tokens", "reasoning_tokens"):
        values = [getattr(u, key) for u in read if getattr(u, key) is not None]
        assert getattr(tally.usage, key) == (sum(values) if values else None)
    costs = [u.cost for u in read if u.cost is not None]
    exact = float(sum((Decimal(repr(c)) for c in costs), Decimal(0))) if costs else None
    assert tally.usage.cost == exact
