"""Merging a run of streamed chat-completion chunks (the server's JSON) into one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.providers.chunk_merge import ChunkMerger
from tests.providers.test_wire_normalizer import check_message, merged
from tests.support.wire_streams import SentReply, replies


def chunk(delta: dict[str, Any], **choice: Any) -> dict[str, Any]:
    return {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": delta, **choice}]}


def run_of(*chunks: dict[str, Any]) -> list[dict[str, Any]]:
    merger = ChunkMerger()
    out = [merged for one in chunks for merged in merger.add(one)]
    return [*out, *merger.take()]


def deltas(chunks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c["choices"][0]["delta"] if c["choices"] else {} for c in chunks]


def test_a_lone_chunk_goes_on_as_it_came() -> None:
    one = chunk({"content": "hi"}, finish_reason=None, logprobs=None)

    assert run_of(one)[0] is one


def test_content_and_reasoning_join_in_their_order() -> None:
    out = run_of(
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": None, "reasoning_content": "Let me "}),
        chunk({"reasoning_content": "think."}),
        chunk({"content": "Yes"}),
        chunk({"content": "."}),
        chunk({"reasoning_content": "Later thought."}),
    )

    assert deltas(out) == [
        {"role": "assistant", "content": "Yes.", "reasoning_content": "Let me think."},
        {"reasoning_content": "Later thought."},
    ]


def test_finish_usage_and_unknown_fields_end_a_run_and_go_on_alone() -> None:
    finish = chunk({}, finish_reason="stop")
    usage = {"id": "c1", "choices": [], "usage": {"prompt_tokens": 1}}
    odd = chunk({"content": "x", "audio": {"id": "a"}})

    out = run_of(chunk({"content": "a"}), chunk({"content": "b"}), odd, finish, usage)

    assert out[1:] == [odd, finish, usage]
    assert deltas(out)[0]["content"] == "ab"


def test_tool_call_deltas_merge_by_index_and_a_repeated_name_is_kept_once() -> None:
    head = {"index": 0, "id": "call_a", "type": "function"}
    out = run_of(
        chunk({"tool_calls": [{**head, "function": {"name": "read", "arguments": ""}}]}),
        chunk({"tool_calls": [{**head, "function": {"name": "read", "arguments": '{"p'}}]}),
        chunk({"tool_calls": [{"index": 1, "id": "call_b", "function": {"name": "ls"}}]}),
        chunk({"tool_calls": [{**head, "function": {"name": "read", "arguments": '": 1}'}}]}),
    )

    assert deltas(out)[0]["tool_calls"] == [
        {"index": 0, "id": "call_a", "type": "function",
         "function": {"name": "read", "arguments": '{"p": 1}'}},
        {"index": 1, "id": "call_b", "function": {"name": "ls"}},
    ]  # fmt: skip


def test_a_name_already_sent_in_an_earlier_run_is_not_sent_again() -> None:
    merger = ChunkMerger()
    call = {"index": 0, "function": {"name": "read", "arguments": "{}"}}

    first = merger.add(chunk({"tool_calls": [call]}, finish_reason="tool_calls"))
    merger.add(chunk({"tool_calls": [call]}))
    merger.add(chunk({"tool_calls": [call]}))
    later = merger.take()

    assert first[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"] == "read"
    assert deltas(later)[0]["tool_calls"][0]["function"] == {"name": None, "arguments": "{}{}"}


def test_the_end_of_one_call_and_the_start_of_the_next_under_one_index_are_never_glued() -> None:
    """Servers that number every call 0 may end one call and start the next in one chunk:
    that chunk goes on as it came, and the next call's arguments stay the next call's."""

    def chunk(*calls: dict[str, object]) -> dict[str, object]:
        delta = {"tool_calls": list(calls)}
        return {"id": "c", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}

    start = {"index": 0, "id": "srv_1", "type": "function",
             "function": {"name": "read_file", "arguments": ""}}  # fmt: skip
    both = chunk(
        {"index": 0, "function": {"arguments": "{}"}},
        {"index": 0, "id": "srv_2", "type": "function",
         "function": {"name": "read_file", "arguments": ""}},
    )  # fmt: skip
    merger = ChunkMerger()
    out = [*merger.add(chunk(start)), *merger.add(both)]
    out += [
        *merger.add(chunk({"index": 0, "function": {"arguments": '{"path": 1}'}})),
        *merger.take(),
    ]
    pieces = [
        (call.get("id"), call["function"]["arguments"])
        for c in out
        for call in c["choices"][0]["delta"]["tool_calls"]
    ]
    assert ("srv_2", "") in pieces or ("srv_2", '{"path": 1}') in pieces
    assert not any("{}{" in arguments for _, arguments in pieces)


@settings(max_examples=300, deadline=None)
@given(
    case=st.one_of(replies(), replies(call_ways=("index zero",), min_calls=2)),
    data=st.data(),
)
def test_any_framing_read_in_any_pieces_merges_to_what_was_sent(
    case: tuple[SentReply, list[dict[str, Any]]], data: st.DataObject
) -> None:
    """The class: a read hands over any run of consecutive events, and the runs merged are
    read (normalizer, langchain) as the events one by one are: what was sent."""
    sent, events = case
    ends = data.draw(st.sets(st.integers(1, max(1, len(events)))), label="read ends")
    merger = ChunkMerger()
    coalesced: list[dict[str, Any]] = []
    for number, event in enumerate(json.loads(json.dumps(events)), start=1):
        coalesced += merger.add(event)
        if number in ends:
            coalesced += merger.take()
    coalesced += merger.take()
    check_message(merged(coalesced), sent)


def test_a_new_id_under_an_index_after_a_run_of_id_less_fragments_is_a_new_call() -> None:
    """Found over HTTP: a call's last argument fragment (no id) and the next call's first (a
    new id, the same index) in one read are two calls, not one."""
    start = {"index": 0, "id": "srv_1", "type": "function",
             "function": {"name": "read_file", "arguments": ""}}  # fmt: skip
    two_in_one = chunk({"tool_calls": [start, {"index": 0, "function": {"arguments": "{"}}]})
    out = run_of(
        two_in_one,
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}),
        chunk({"tool_calls": [{**start, "id": "srv_2"}]}),
    )
    pieces = [
        (call.get("id"), call["function"]["arguments"])
        for c in out
        for call in c["choices"][0]["delta"]["tool_calls"]
    ]
    assert ("srv_2", "") in pieces
    assert (None, "}") in pieces
