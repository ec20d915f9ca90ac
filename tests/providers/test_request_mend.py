"""What a request carries in its tool rounds, whatever the stored history holds: generated
histories (ids from any provider, missing or empty, repeated names, tool messages with or
without names) are built into a payload by the real ``ChatOpenAI`` and mended."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import SecretStr

from agents.providers.openai_reasoning import (
    ReasoningChatOpenAI,
    asks_for_ids,
    asks_for_reasoning,
)
from agents.providers.presets import MISTRAL_IDS, ToolCallIds
from agents.providers.request_mend import mend_messages
from agents.providers.wire_normalizer import CALL_EXTRAS_KEY, DETAILS_KEY, REASONING_FIELD_KEY

_IDS = st.one_of(
    st.just(""),
    st.just("call_abc123"),  # the same id in two rounds (two providers' counters)
    st.text(alphabet="abcXYZ019_-", min_size=1, max_size=30),
)


@st.composite
def histories(draw: st.DrawFn) -> list[BaseMessage]:
    """Tool rounds as a store may hold them: an assistant message with calls, then one tool
    message per call (its id kept, emptied, or the call's), some with their tool's name."""
    messages: list[BaseMessage] = [HumanMessage("hi")]
    for _round in range(draw(st.integers(1, 3))):
        calls = []
        for _ in range(draw(st.integers(1, 3))):
            name = draw(st.sampled_from(["read_file", "search"]))
            calls.append({"name": name, "args": {}, "id": draw(_IDS), "type": "tool_call"})
        messages.append(AIMessage(content="", tool_calls=calls))
        for call in calls:
            named = draw(st.booleans())
            messages.append(
                ToolMessage(
                    content="out",
                    tool_call_id=call["id"],
                    name=call["name"] if named else None,
                )
            )
        messages.append(AIMessage(content="ok"))
    return messages


def _payload(messages: list[BaseMessage], ids: ToolCallIds | None) -> list[dict[str, Any]]:
    model = ReasoningChatOpenAI(
        model="m", base_url="http://127.0.0.1:9/v1", api_key=SecretStr("k"), tool_call_ids=ids
    )
    sent = model._get_request_payload(messages)["messages"]
    assert isinstance(sent, list)
    return sent


@settings(max_examples=150, deadline=None)
@given(history=histories(), mistral=st.booleans())
def test_every_tool_round_is_sent_whole_with_ids_the_server_accepts(
    history: list[BaseMessage], mistral: bool
) -> None:
    ids = MISTRAL_IDS if mistral else None
    sent = _payload(history, ids)
    calls: list[str] = []
    pending: list[str] = []
    for message, original in zip(sent, history, strict=True):
        if message.get("tool_calls"):
            pending = [call["id"] for call in message["tool_calls"]]
            calls.extend(pending)
        if message["role"] == "tool":
            assert message["tool_call_id"] == pending.pop(0)  # answers its call, in order
            assert isinstance(original, ToolMessage)
            assert message["name"] == original.name or message["name"] in ("read_file", "search")
    assert all(isinstance(i, str) and i for i in calls)
    assert len(set(calls)) == len(calls)
    if mistral:
        assert all(re.fullmatch("[A-Za-z0-9]{9}", i) for i in calls)
    originals = [
        c["id"] for m in history if isinstance(m, AIMessage) for c in m.tool_calls
    ]  # the history itself is never rewritten
    assert len(originals) == len(calls)


def test_an_accepted_id_is_sent_as_it_is_and_others_are_mapped_the_same_each_time() -> None:
    assert MISTRAL_IDS.accepts("abcDEF123")
    assert not MISTRAL_IDS.accepts("call_abcdef")
    assert MISTRAL_IDS.make("call_x") == MISTRAL_IDS.make("call_x")
    history: list[BaseMessage] = [
        AIMessage("", tool_calls=[{"name": "s", "args": {}, "id": "abcDEF123"}]),
        ToolMessage("o", tool_call_id="abcDEF123"),
    ]
    sent = _payload(history, MISTRAL_IDS)
    assert sent[0]["tool_calls"][0]["id"] == "abcDEF123"
    assert sent[1] == {"role": "tool", "content": "o", "tool_call_id": "abcDEF123", "name": "s"}


def test_reasoning_goes_back_in_its_own_field_and_in_the_one_a_server_asked_for() -> None:
    original = AIMessage(
        "",
        tool_calls=[{"name": "s", "args": {}, "id": "a"}],
        additional_kwargs={
            "reasoning_content": "PLAN",
            REASONING_FIELD_KEY: "reasoning_details",
            DETAILS_KEY: [{"type": "reasoning.encrypted", "data": "xyz"}],
        },
    )
    sent: list[dict[str, Any]] = [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "a", "type": "function",
         "function": {"name": "s", "arguments": "{}"}}]},
    ]  # fmt: skip
    mend_messages(sent, [original], reasoning_back=True, learnt_field="reasoning")
    assert sent[0]["reasoning_details"] == [{"type": "reasoning.encrypted", "data": "xyz"}]
    assert sent[0]["reasoning"] == "PLAN"
    assert "reasoning_content" not in sent[0]


def test_mistrals_endpoint_gets_its_id_format_from_the_traits_table() -> None:
    from agents.providers import ProviderConfig, make_chat_model

    config = ProviderConfig(
        provider="openai-compatible",
        base_url="https://api.mistral.ai/v1",
        api_key=SecretStr("k"),
        model="mistral-small-latest",
    )
    model = make_chat_model(config).model
    assert isinstance(model, ReasoningChatOpenAI)
    assert model.tool_call_ids == MISTRAL_IDS
    config = ProviderConfig(
        provider="openai-compatible", base_url="http://127.0.0.1:9/v1", model="m"
    )
    other = make_chat_model(config).model
    assert isinstance(other, ReasoningChatOpenAI)
    assert other.tool_call_ids is None


def _bad_request(message: str) -> Any:
    import httpx2 as httpx
    import openai

    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    response = httpx.Response(400, request=request)
    return openai.BadRequestError(message, response=response, body={"message": message})


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("Missing `reasoning_content` field in the assistant message at index 2.", "reasoning_content"),
        ("Missing `reasoning` field in the assistant message at message index 1.", "reasoning"),
        ("reasoning_details is required for assistant messages with tool calls", "reasoning_details"),
        ("Invalid request: messages[1] is missing", None),
        ("Rate limit reached for requests.", None),
        ("Missing required parameter: 'reasoning.effort'.", None),
        ("reasoning is required in the request body", None),
    ],
)  # fmt: skip
def test_the_field_a_400_asks_for_is_the_one_it_names(text: str, field: str | None) -> None:
    assert asks_for_reasoning(_bad_request(text)) == field


def test_mistrals_id_400_names_the_format() -> None:
    text = "Tool call id was call_0 but must be a-z, A-Z, 0-9, with a length of 9."
    assert asks_for_ids(_bad_request(text)) == MISTRAL_IDS
    assert asks_for_ids(_bad_request("Missing `reasoning` field")) is None


def test_call_extras_go_back_only_to_a_server_that_needs_them() -> None:
    signed = {"google": {"thought_signature": "SIG"}}
    original = AIMessage(
        "",
        tool_calls=[{"name": "s", "args": {}, "id": "a"}],
        additional_kwargs={CALL_EXTRAS_KEY: {"a": {"extra_content": signed}}},
    )

    def sent() -> list[dict[str, Any]]:
        return [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "s", "arguments": "{}"}}]}]  # fmt: skip

    needs, other = sent(), sent()
    mend_messages(needs, [original], call_extras=True)
    mend_messages(other, [original])
    assert needs[0]["tool_calls"][0]["extra_content"] == signed
    assert "extra_content" not in other[0]["tool_calls"][0]


def test_geminis_endpoint_gets_its_signatures_back_from_the_traits_table() -> None:
    from agents.providers import ProviderConfig, make_chat_model

    config = ProviderConfig(
        provider="openai-compatible",
        base_url="https://generativelanguage.googleapis.com/v1beta/openai",
        api_key=SecretStr("k"),
        model="gemini-2.5-flash",
    )
    model = make_chat_model(config).model
    assert isinstance(model, ReasoningChatOpenAI)
    assert model.send_call_extras
