"""The merger's short way for the usual chunk gives what the long way gives, for every stream.

The class: any stream of chunks (every framing the generated replies use, reasoning under every
field name the normalizer knows, tool-call fragments, refusals, usage-only chunks, empty deltas,
finish reasons, and chunks one field away from the usual shape), read in any grouping of reads,
merged by :meth:`ChunkMerger.add` and by :meth:`ChunkMerger.add_in_full` chunk for chunk: the
same chunks come out, at the same places, and a chunk that goes on alone is the very object
that came in.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.providers.chunk_merge import ChunkMerger
from tests.support.wire_streams import replies

_TEXT = st.text(alphabet="abc xyz\n", max_size=8)


def _usual(text: str, *, logprobs_key: bool = True) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": {"content": text}, "finish_reason": None}
    if logprobs_key:
        choice["logprobs"] = None
    return {"id": "chatcmpl-u", "object": "chat.completion.chunk", "created": 1,
            "model": "fake-model", "choices": [choice]}  # fmt: skip


Chunk = dict[str, Any]


def _set(where: str, field: str, value: Any) -> Any:
    """A change that sets ``field`` of the chunk, its choice or its delta to ``value``."""

    def change(chunk: Chunk) -> Chunk:
        choice = chunk["choices"][0]
        {"chunk": chunk, "choice": choice, "delta": choice["delta"]}[where][field] = value
        return chunk

    return change


def _drop(field: str) -> Any:
    def change(chunk: Chunk) -> Chunk:
        del chunk["choices"][0][field]
        return chunk

    return change


def _two_choices(chunk: Chunk) -> Chunk:
    chunk["choices"].append({**chunk["choices"][0], "index": 1})
    return chunk


def _reordered(chunk: Chunk) -> Chunk:
    chunk["choices"] = [dict(reversed(list(chunk["choices"][0].items())))]
    return chunk


USAGE = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
NEAR_MISSES = {
    "finish reason": _set("choice", "finish_reason", "stop"),
    "log-probabilities": _set("choice", "logprobs", {"content": []}),
    "index 1": _set("choice", "index", 1),
    "index missing": _drop("index"),
    "another choice field": _set("choice", "stop_reason", "x"),
    "role too": _set("delta", "role", "assistant"),
    "reasoning too": _set("delta", "reasoning_content", "r"),
    "reasoning too, another name": _set("delta", "reasoning", "r"),
    "refusal too": _set("delta", "refusal", "no"),
    "content None": _set("delta", "content", None),
    "content a number": _set("delta", "content", 7),
    "no delta field": _drop("delta"),
    "empty delta": _set("choice", "delta", {}),
    "two choices": _two_choices,
    "no choices": _set("chunk", "choices", []),
    "usage": _set("chunk", "usage", USAGE),
    "usage null": _set("chunk", "usage", None),
    "error": _set("chunk", "error", {"message": "no"}),
    "not a dict": lambda chunk: [chunk],
    "choice not a dict": _set("chunk", "choices", ["x"]),
    "keys reordered": _reordered,
}
"""Chunks one change away from the usual shape (most of them must take the long way)."""
SHORT_WAY_TOO = ("keys reordered", "usage null")
"""The near misses that are still the usual shape (the order of keys, a ``null`` usage)."""


def _near_miss(way: str, text: str) -> Any:
    return NEAR_MISSES[way](_usual(text))


@st.composite
def chunk_streams(draw: st.DrawFn) -> list[Any]:
    """A generated reply's chunks with usual and near-usual chunks put in at drawn places."""
    _sent, events = draw(st.one_of(replies(), replies(call_ways=("index zero",), min_calls=2)))
    extra = draw(
        st.lists(
            st.tuples(
                st.integers(0, len(events)),
                st.one_of(
                    st.builds(_usual, _TEXT, logprobs_key=st.booleans()),
                    st.builds(_near_miss, st.sampled_from(sorted(NEAR_MISSES)), _TEXT),
                ),
            ),
            max_size=12,
        )
    )
    stream = list(events)
    for place, chunk in sorted(extra, key=lambda item: item[0], reverse=True):
        stream.insert(place, chunk)
    return stream


def _merge(stream: list[Any], ends: set[int], *, short_way: bool) -> list[Any]:
    merger = ChunkMerger()
    add = merger.add if short_way else merger.add_in_full
    out: list[Any] = []
    for number, chunk in enumerate(stream, start=1):
        out += add(chunk)
        if number in ends:
            out += merger.take()
    return [*out, *merger.take()]


def _origin(out: list[Any], stream: list[Any]) -> list[int | None]:
    """For each chunk out, the place of the chunk that came in as it (``None``: a merged one)."""
    places = {id(chunk): place for place, chunk in enumerate(stream)}
    return [places.get(id(chunk)) for chunk in out]


@settings(max_examples=200, deadline=None)
@given(stream=chunk_streams(), data=st.data())
def test_the_short_way_and_the_long_way_merge_every_stream_alike(
    stream: list[Any], data: st.DataObject
) -> None:
    ends = data.draw(st.sets(st.integers(1, max(1, len(stream)))), label="read ends")
    copied = copy.deepcopy(stream)
    long_way = _merge(copied, ends, short_way=False)
    short_way = _merge(stream, ends, short_way=True)

    assert short_way == long_way
    assert _origin(short_way, stream) == _origin(long_way, copied)
    assert stream == copied  # neither way changes a chunk it was given


def test_the_usual_chunk_takes_the_short_way_and_near_misses_the_long_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The short way is taken where it is meant to be (else the test above proves little)."""
    calls: list[Any] = []

    def long_way(self: ChunkMerger, chunk: Any) -> tuple[dict[str, Any], ...]:
        calls.append(chunk)
        return ()

    monkeypatch.setattr(ChunkMerger, "add_in_full", long_way)
    merger = ChunkMerger()

    merger.add(_usual("a"))
    merger.add(_usual("b", logprobs_key=False))
    for way in SHORT_WAY_TOO:
        merger.add(_near_miss(way, "c"))
    assert calls == []
    for way in NEAR_MISSES:
        if way not in SHORT_WAY_TOO:
            merger.add(_near_miss(way, "d"))
    assert len(calls) == len(NEAR_MISSES) - len(SHORT_WAY_TOO)
