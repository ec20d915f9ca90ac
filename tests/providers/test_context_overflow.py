"""A request longer than the model's context window is cut to fit and asked once more, the
window is learned for that server and model, and a request that cannot fit ends in one sentence
naming "Summarise older turns" (the real ``ChatOpenAI`` over HTTP, and generated cases)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately

import agents.providers.context_overflow as context_overflow
from agents.context_budget import request_budget
from agents.providers import ChatModelHandle
from agents.providers.context_overflow import (
    SUMMARISE_COMMAND,
    ContextTooLongError,
    ContextWindow,
    learned_context_window,
    read_overflow,
)
from tests.support.fake_openai import FakeOpenAI, Reply


@pytest.fixture(autouse=True)
def _nothing_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows learned in a test stay in it (the memory is process-wide)."""
    monkeypatch.setattr(context_overflow, "_LEARNED", {})


def vllm_overflow(window: int, messages: int, completion: int = 0) -> Reply:
    return Reply.http_error(
        400,
        f"This model's maximum context length is {window} tokens. However, you requested "
        f"{messages + completion} tokens ({messages} in the messages, {completion} in the "
        "completion). Please reduce the length of the messages or completion.",
    )


def openai_overflow(window: int, tokens: int) -> Reply:
    message = (
        f"This model's maximum context length is {window} tokens. However, your messages "
        f"resulted in {tokens} tokens. Please reduce the length of the messages."
    )
    body = {
        "error": {
            "message": message,
            "type": "invalid_request_error",
            "param": "messages",
            "code": "context_length_exceeded",
        }
    }
    return Reply(status=400, error_json=body)


def long_conversation(turns: int, chars: int = 2000) -> list[BaseMessage]:
    messages: list[BaseMessage] = [SystemMessage("You are terse.")]
    for n in range(turns):
        messages += [HumanMessage(f"q{n} " + "x" * chars), AIMessage(f"a{n} " + "y" * chars)]
    return [*messages, HumanMessage("The question now: what was q0 about?")]


def sent_contents(body: dict[str, Any]) -> list[str]:
    return [str(m.get("content") or "")[:3] for m in body["messages"]]


@pytest.mark.parametrize("overflow", ["vllm", "openai"])
async def test_an_overflow_is_cut_to_fit_asked_again_and_learned(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle], overflow: str
) -> None:
    handle = fake_model()
    conversation = long_conversation(10)  # about 10,000 tokens
    refusal = vllm_overflow(4096, 11_000) if overflow == "vllm" else openai_overflow(4096, 11_000)
    fake_openai.script(refusal, "It was about x.", "Still x.")

    first = await handle.model.ainvoke(conversation)
    second = await handle.model.ainvoke(conversation)

    assert first.content == "It was about x."
    assert second.content == "Still x."
    bodies = fake_openai.chat_bodies
    assert len(bodies) == 3  # one overflow, then each call fits
    cut, later = sent_contents(bodies[1]), sent_contents(bodies[2])
    assert len(cut) < len(sent_contents(bodies[0]))
    assert cut[0] == "You"  # the system prompt is kept
    assert cut[-1] == "The"  # so is the question
    assert later == cut  # the learned window cuts the next call before it is sent
    learned = learned_context_window(handle.base_url, handle.model_name)
    assert learned is not None
    assert learned <= 4096


async def test_a_streamed_call_is_cut_and_asked_again_too(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(vllm_overflow(2048, 11_000, 512), "Fits now.")

    chunks = [c.content async for c in fake_model().model.astream(long_conversation(10))]

    assert "".join(map(str, chunks)) == "Fits now."
    assert len(fake_openai.chat_bodies) == 2


async def test_a_request_that_cannot_fit_names_summarise_older_turns(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    handle = fake_model()
    fake_openai.script(vllm_overflow(1024, 5000), "never asked")

    with pytest.raises(ContextTooLongError) as raised:
        await handle.model.ainvoke([SystemMessage("Be brief."), HumanMessage("z " * 5000)])

    sentence = handle.translate_error(raised.value).user_message
    assert SUMMARISE_COMMAND in sentence
    assert "1,024 tokens" in sentence
    assert sentence.endswith(".")
    assert "\n" not in sentence
    assert len(fake_openai.chat_requests) == 1


async def test_a_second_overflow_after_the_cut_is_not_tried_a_third_time(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(vllm_overflow(4096, 11_000), vllm_overflow(4096, 9000), "never asked")

    with pytest.raises(ContextTooLongError):
        await fake_model().model.ainvoke(long_conversation(10))

    assert len(fake_openai.chat_requests) == 2


async def test_an_overflow_translated_anywhere_names_the_command(
    fake_openai: FakeOpenAI, fake_model: Callable[..., ChatModelHandle]
) -> None:
    handle = fake_model()
    fake_openai.script(vllm_overflow(4096, 9000))

    try:
        handle.model.invoke("hello")  # the sync path, which does not cut and retry
    except Exception as exc:  # noqa: BLE001 (what the call raises is what gets translated)
        error = handle.translate_error(exc)
    else:
        raise AssertionError("the call did not fail")

    assert isinstance(error, ContextTooLongError)
    assert SUMMARISE_COMMAND in error.user_message


# -- the class: every server's wording; every conversation ----------------------------------


class StatusError(Exception):
    """What a provider's 400 carries, as the SDK's error does (status, message, body)."""

    def __init__(self, message: str, body: Any = None, status_code: int = 400) -> None:
        super().__init__(message)
        self.message, self.body, self.status_code = message, body, status_code


WORDINGS = [
    "This model's maximum context length is {n} tokens. However, you requested {m} tokens "
    "({m} in the messages, 0 in the completion). Please reduce the length of the messages.",
    "This model's maximum context length is {n:,} tokens. However, your messages resulted in "
    "{m:,} tokens. Please reduce the length of the messages.",
    "The input ({m} tokens) is longer than the model's context length ({n} tokens).",
    "Prompt contains {m} tokens and 0 draft tokens, too large for model with {n} maximum "
    "context length",
    "prompt is too long: {m} tokens > {n} maximum",
    "The input token count ({m}) exceeds the maximum number of tokens allowed ({n}).",
    "Input validation error: `inputs` tokens + `max_new_tokens` must be <= {n}. Given: {m} "
    "`inputs` tokens and 0 `max_new_tokens`",
]
WINDOW_ONLY = [
    "Trying to keep the first {m} tokens when context the overflows. However, the model is "
    "loaded with context length of only {n} tokens, which is not enough. Try to load the model "
    "with a larger context length, or provide a shorter input",
    "The prompt is too long: {m}, model maximum context length: {n}",
]
NAMED_ONLY = [
    "prompt too long; exceeded max context length by {m} tokens",
    "Input is too long for requested model.",
]
OTHER_400S = [
    "registry.ollama.ai/library/qwen does not support tools",
    "Invalid schema for response_format 'Answer'",
    "Missing `reasoning_content` field in the assistant message at message index 2.",
    "messages[3].tool_call_id is required",
    "context too long",
    "Request too large for model `llama3-70b-8192` in organization `org_x` on tokens per minute "
    "(TPM): Limit 6000, Requested 12000, please reduce your message size and try again.",
]


@settings(max_examples=100, deadline=None)
@given(
    wording=st.sampled_from(WORDINGS),
    window=st.integers(512, 2_000_000),
    extra=st.integers(1, 500_000),
)
def test_every_wording_of_an_overflow_gives_its_window_and_count(
    wording: str, window: int, extra: int
) -> None:
    read = read_overflow(StatusError(wording.format(n=window, m=window + extra)))

    assert read is not None
    assert read.window == window
    assert read.requested == window + extra


@settings(max_examples=100, deadline=None)
@given(
    wording=st.sampled_from([*WINDOW_ONLY, *NAMED_ONLY]),
    window=st.integers(512, 2_000_000),
    extra=st.integers(1, 500_000),
    status=st.sampled_from([400, 413]),
)
def test_every_wording_that_names_less_is_still_an_overflow(
    wording: str, window: int, extra: int, status: int
) -> None:
    text = wording.format(n=window, m=window + extra)
    read = read_overflow(StatusError(text, status_code=status))

    assert read is not None
    assert read.window == (window if wording in WINDOW_ONLY else None)


def test_llama_cpp_names_its_window_in_the_body() -> None:
    body = {
        "code": 400,
        "message": "the request exceeds the available context size, try increasing it",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 9000,
        "n_ctx": 4096,
    }

    read = read_overflow(StatusError(str(body["message"]), body))

    assert read == context_overflow.Overflow(4096, 9000)


@pytest.mark.parametrize("message", OTHER_400S)
def test_another_400_is_no_overflow(message: str) -> None:
    assert read_overflow(StatusError(message)) is None
    assert read_overflow(StatusError(WORDINGS[0].format(n=10, m=20), status_code=500)) is None


turns = st.lists(
    st.tuples(st.sampled_from(["human", "ai", "tool round"]), st.integers(0, 3000)),
    min_size=0,
    max_size=25,
)


def conversation_of(shape: list[tuple[str, int]], question: int) -> list[BaseMessage]:
    messages: list[BaseMessage] = [SystemMessage("system prompt")]
    for n, (kind, size) in enumerate(shape):
        if kind == "human":
            messages.append(HumanMessage("h" * size))
        elif kind == "ai":
            messages.append(AIMessage("a" * size))
        else:
            call = {"name": "search", "args": {"q": "x"}, "id": f"call_{n}"}
            messages += [
                AIMessage("", tool_calls=[call]),
                ToolMessage("t" * size, tool_call_id=f"call_{n}"),
            ]
    return [*messages, HumanMessage("q" * question)]


@settings(max_examples=150, deadline=None)
@given(shape=turns, question=st.integers(1, 6000), window=st.integers(256, 8192))
def test_a_cut_request_fits_keeps_what_must_stay_or_says_it_cannot(
    shape: list[tuple[str, int]], question: int, window: int
) -> None:
    context_overflow._LEARNED.clear()  # each example is a server of its own
    messages = conversation_of(shape, question)
    sent = count_tokens_approximately(messages)
    overflow = StatusError(WORDINGS[0].format(n=window, m=max(sent, window + 1)))
    guard = ContextWindow("http://server/v1", "model")

    outcome: list[BaseMessage] | ContextTooLongError | None
    try:
        outcome = guard.refit(overflow, messages)
    except ContextTooLongError as exc:
        outcome = exc
    if isinstance(outcome, ContextTooLongError):
        assert SUMMARISE_COMMAND in outcome.user_message
        return
    assert outcome is not None
    fitted = outcome
    kept = count_tokens_approximately(fitted)
    assert kept < sent
    assert kept <= request_budget(window)
    assert fitted[0] is messages[0]  # the system prompt
    assert fitted[-1] is messages[-1]  # the question
    called = {c["id"] for m in fitted if isinstance(m, AIMessage) for c in m.tool_calls}
    answered = {m.tool_call_id for m in fitted if isinstance(m, ToolMessage)}
    assert answered <= called  # no tool result without its call
    with pytest.raises(ContextTooLongError):  # once cut, a second overflow is the end
        guard.refit(overflow, fitted)
