"""The wire normalizer: however a server frames a reply, the merged message says what was sent.

Generated streams (``tests.support.wire_streams``) are read chunk by chunk through the model's
own conversion (langchain-openai's, with the normalizer before it and the stream repair after),
as a stream would be: the content, the reasoning (whatever its field), the refusal, each tool
call (name, arguments, order, a non-empty unique id) and the finish reason come out as sent.
The same guarantee over real HTTP is in ``test_wire_streams_http.py``.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from pydantic import SecretStr

from agents.providers.openai_reasoning import _NORMALIZER, ReasoningChatOpenAI
from agents.providers.stream_repair import StreamRepair
from agents.providers.thinking import REASONING_KEY
from agents.providers.wire_normalizer import (
    CALL_EXTRAS_KEY,
    DETAILS_KEY,
    REASONING_FIELD_KEY,
    StreamNormalizer,
    details_text,
    join_details,
)
from tests.support.wire_streams import SentReply, replies


def _model() -> ReasoningChatOpenAI:
    return ReasoningChatOpenAI(
        model="fake-model", base_url="http://127.0.0.1:9/v1", api_key=SecretStr("k")
    )


MODEL = _model()


def merged(chunks: list[dict[str, Any]]) -> AIMessageChunk:
    """The chunks as one message, converted and merged as ``astream`` does."""
    normalizer, repair = StreamNormalizer(), StreamRepair()
    out: list[ChatGenerationChunk] = []
    for chunk in json.loads(json.dumps(chunks)):
        _NORMALIZER.set(normalizer)
        generation = MODEL._convert_chunk_to_generation_chunk(chunk, AIMessageChunk, {})
        if generation is not None:
            out.append(repair.mend(generation))
    last = repair.finish()
    if last is not None:
        out.append(last)
    if not out:
        return AIMessageChunk(content="")
    total = out[0]
    for generation in out[1:]:
        total += generation
    message = total.message
    assert isinstance(message, AIMessageChunk)
    if total.generation_info:
        message.response_metadata.update(total.generation_info)
    return message


def check_message(message: Any, sent: SentReply) -> None:
    """The guarantee, for one merged message."""
    assert message.content == sent.answer
    assert (message.additional_kwargs.get(REASONING_KEY) or "") == sent.reasoning
    assert (message.additional_kwargs.get("refusal") or "") == sent.refusal
    calls = message.tool_calls
    assert [(c["name"], c["args"]) for c in calls] == sent.calls
    ids = [c["id"] for c in calls]
    assert all(isinstance(i, str) and i for i in ids)
    assert len(set(ids)) == len(ids)
    assert not message.invalid_tool_calls
    assert message.response_metadata.get("finish_reason") == sent.finish_reason
    field = message.additional_kwargs.get(REASONING_FIELD_KEY)
    if sent.reasoning and sent.reasoning_way != "think":
        way = sent.reasoning_way
        assert field == ("reasoning_details" if way == "openrouter" else way)


@settings(max_examples=200, deadline=None)
@given(replies())
def test_any_framing_merges_to_what_was_sent(case: tuple[SentReply, list[dict[str, Any]]]) -> None:
    sent, chunks = case
    check_message(merged(chunks), sent)


def _call(**fields: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"tool_calls": [fields]}, "finish_reason": None}]}


def test_gemini_calls_without_index_or_ids_in_one_chunk_are_each_a_call() -> None:
    """Gemini's framing: two complete calls in one chunk, no index, empty ids, then "stop"."""
    calls = [
        {"id": "", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a"}'}},
        {"id": "", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "b"}'}},
    ]  # fmt: skip
    chunks = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": calls}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    message = merged(chunks)
    assert [c["args"] for c in message.tool_calls] == [{"path": "a"}, {"path": "b"}]
    first, second = (c["id"] for c in message.tool_calls)
    assert first
    assert second
    assert first != second
    assert message.response_metadata["finish_reason"] == "stop"


def test_ids_of_our_own_are_stable_within_a_reply_and_differ_between_replies() -> None:
    one, two = StreamNormalizer(), StreamNormalizer()
    assert one.new_id(0) == one.new_id(0)
    assert one.new_id(0) != two.new_id(0)


def test_a_server_id_arriving_after_ours_is_not_glued_to_it() -> None:
    message = merged(
        [
            _call(function={"name": "search", "arguments": '{"q":'}),
            _call(id="late", function={"arguments": ' "x"}'}),
        ]
    )
    assert len(message.tool_calls) == 1
    assert message.tool_calls[0]["args"] == {"q": "x"}
    assert "late" not in (message.tool_calls[0]["id"] or "")


def test_reasoning_details_keep_their_items_for_sending_back() -> None:
    items = [
        {"type": "reasoning.text", "text": "Let me ", "index": 0},
        {"type": "reasoning.text", "text": "see.", "index": 0},
        {"type": "reasoning.encrypted", "data": "b64==", "index": 1},
    ]
    message = merged(
        [{"choices": [{"index": 0, "delta": {"reasoning_details": [item]}}]} for item in items]
    )
    assert message.additional_kwargs[REASONING_KEY] == "Let me see."
    details = message.additional_kwargs[DETAILS_KEY]
    assert join_details(details) == [
        {"type": "reasoning.text", "text": "Let me see."},
        {"type": "reasoning.encrypted", "data": "b64=="},
    ]
    assert details_text([{"type": "reasoning.summary", "summary": "S"}]) == "S"


def test_a_plain_content_chunk_is_left_as_it_came() -> None:
    chunk = {"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": None}]}
    before = json.dumps(chunk)
    assert StreamNormalizer().chunk(chunk) is None
    assert json.dumps(chunk) == before


def test_a_finish_reason_said_twice_is_read_once() -> None:
    finish = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    message = merged([{"choices": [{"index": 0, "delta": {"content": "ok"}}]}, finish, finish])
    assert message.response_metadata["finish_reason"] == "stop"


def test_what_a_server_attaches_to_a_call_is_kept_once_by_its_id() -> None:
    signed = {"google": {"thought_signature": "SIG"}}
    message = merged(
        [
            _call(function={"name": "search", "arguments": '{"q":'}, extra_content=signed),
            _call(function={"arguments": ' "x"}'}, extra_content=signed),  # said again
            _call(function={"name": "read_file", "arguments": "{}"}),
        ]
    )
    first, second = message.tool_calls
    assert message.additional_kwargs[CALL_EXTRAS_KEY] == {first["id"]: {"extra_content": signed}}
    assert second["id"] not in message.additional_kwargs[CALL_EXTRAS_KEY]
