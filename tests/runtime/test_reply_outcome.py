"""The classifier of a model call's outcome, over generated reply shapes: every shape is
complete, whole calls, or marked with one sentence; a reply cut by ``length``, filtered or
refused never counts as calls to run; and a streamed call runs only on whole arguments."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.messages.tool import tool_call_chunk

from agents.graph.whole_calls import is_whole, whole_calls_only
from agents.reply_outcome import (
    MARKED,
    MarkedReply,
    check_reply,
    finish_reason_of,
    reply_outcome,
)

CONTENTS = st.sampled_from(["", "  \n", "Noted.", "<think>only thinking</think>", "Half of it"])
FINISHES = st.sampled_from(
    ["stop", "tool_calls", "length", "content_filter", None, "MAX_TOKENS", "SAFETY", "refusal"]
)
REFUSALS = st.sampled_from([None, "", "I can't help with that."])
ARGS = {"recipient": "Alex", "content": "Thank you Alex."}


@st.composite
def replies(draw: st.DrawFn) -> tuple[AIMessage, dict[str, Any]]:
    content = draw(CONTENTS)
    finish = draw(FINISHES)
    refusal = draw(REFUSALS)
    calls = draw(st.sampled_from(["none", "whole", "broken"]))
    kwargs: dict[str, Any] = {}
    if refusal is not None:
        kwargs["refusal"] = refusal
    message = AIMessage(
        content=content,
        additional_kwargs=kwargs,
        response_metadata={"finish_reason": finish} if finish else {},
        tool_calls=[{"name": "reply_privately", "args": ARGS, "id": "c1"}]
        if calls == "whole"
        else [],
        invalid_tool_calls=[
            {"name": "reply_privately", "args": '{"recipient": "Al', "id": "c2", "error": None}
        ]
        if calls == "broken"
        else [],
    )
    shape = {"content": content, "finish": finish, "refusal": refusal, "calls": calls}
    return message, shape


def one_sentence(text: str) -> bool:
    return bool(text) and "\n" not in text and text.endswith(".") and text[0].isupper()


@settings(max_examples=200, deadline=None)
@given(replies())
def test_every_reply_is_complete_whole_calls_or_marked_with_one_sentence(
    generated: tuple[AIMessage, dict[str, Any]],
) -> None:
    message, shape = generated
    outcome = reply_outcome(message)

    finish = (shape["finish"] or "").lower()
    if shape["refusal"]:
        assert outcome.kind == "refused"
        assert outcome.text == shape["refusal"]
    elif finish == "refusal":
        assert outcome.kind == "refused"
    elif finish in ("content_filter", "safety"):
        assert outcome.kind == "filtered"
    elif finish in ("length", "max_tokens"):
        assert outcome.kind == "truncated"
        if shape["calls"] != "none":
            assert "reply_privately" in outcome.sentence()
    elif shape["calls"] != "none":
        assert outcome.kind == "calls"
    elif shape["content"] in ("Noted.", "Half of it"):
        assert outcome.kind == "complete"
    else:  # nothing visible: blank, or only thinking
        assert outcome.kind == "empty"

    # The invariant, stated once: calls run only from an unmarked reply; a marked reply has
    # its one sentence; a complete one has text.
    if outcome.kind == "calls":
        assert finish in ("stop", "tool_calls", "")
        assert not shape["refusal"]
    if outcome.kind == "complete":
        assert outcome.text.strip()
    assert outcome.marked == (outcome.kind in MARKED)
    if outcome.marked:
        assert one_sentence(outcome.sentence())
        assert one_sentence(outcome.sentence("draft"))
        with pytest.raises(MarkedReply) as marked:
            check_reply(message)
        assert marked.value.user_message == outcome.sentence()
        assert marked.value.code == f"reply_{outcome.kind}"
    else:
        assert check_reply(message) == outcome


OBJECT = json.dumps({"recipient": "Alex", "content": "Thank you Alex, see you."})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=len(OBJECT)), min_size=1, max_size=3))
def test_a_streamed_call_runs_only_on_arguments_received_whole(cuts: list[int]) -> None:
    chunks = [
        tool_call_chunk(name="reply_privately", args=OBJECT[:cut], id=f"c{n}", index=n)
        for n, cut in enumerate(cuts)
    ]
    message = whole_calls_only(AIMessageChunk(content="", tool_call_chunks=chunks))

    whole = [f"c{n}" for n, cut in enumerate(cuts) if cut in (0, len(OBJECT))]
    assert [call["id"] for call in message.tool_calls] == whole
    for call in message.tool_calls:
        assert call["args"] in ({}, json.loads(OBJECT))
    assert len(message.tool_calls) + len(message.invalid_tool_calls) == len(cuts)
    for broken in message.invalid_tool_calls:
        assert not is_whole(broken["args"] or "")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(["stop", "tool_calls", "length", "content_filter", "MAX_TOKENS"]),
        min_size=1,
        max_size=3,
    )
)
def test_a_finish_reason_sent_on_several_chunks_is_read_as_the_last(reasons: list[str]) -> None:
    # langchain concatenates the strings of merged chunk metadata.
    message = AIMessage(content="x", response_metadata={"finish_reason": "".join(reasons)})

    assert finish_reason_of(message) == reasons[-1].lower()
