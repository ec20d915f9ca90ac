"""Structured output from any endpoint: the real ChatOpenAI client against the local
OpenAI-compatible server, stepping down the ladder (forced tool, auto tool, JSON mode, JSON in
prose) and remembering per endpoint where to start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import openai
import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from agents.providers import ChatModelHandle
from agents.providers.presets import forced_tool_choice_supported
from agents.structured import MEMO, NoAnswer, Rung, endpoint_of, structured_call
from agents.structured.json_text import json_object_in
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.structured_answers import StructuredAnswers, forced_tool


class Verdict(BaseModel):
    """Whether the draft holds."""

    passed: bool
    score: float = Field(ge=0.0, le=1.0)
    kind: Literal["claim", "question"] = "claim"


GOOD: dict[str, Any] = {"passed": True, "score": 0.8, "kind": "claim"}
MESSAGES = [SystemMessage("You check drafts."), HumanMessage("Draft: LoRA adds adapters [1].")]


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


async def ask(handle: ChatModelHandle) -> Verdict | NoAnswer:
    return await structured_call(handle.model, Verdict, MESSAGES, name="critic")


async def test_a_refused_tool_choice_falls_to_auto_and_the_next_call_starts_there(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.default = StructuredAnswers({"Verdict": GOOD}, refuses=frozenset({"tool_choice"}))
    handle = openai_model()
    assert await ask(handle) == Verdict(**GOOD)
    assert [forced_tool(r.body or {}) for r in fake_openai.chat_requests] == ["Verdict", None]
    assert MEMO.start(endpoint_of(handle.model)) is Rung.AUTO_TOOL

    assert await ask(handle) == Verdict(**GOOD)
    assert len(fake_openai.chat_requests) == 3  # one request, no refused try first


async def test_no_tools_and_no_json_mode_leave_json_in_the_prose(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.default = StructuredAnswers(
        {"Verdict": GOOD}, refuses=frozenset({"tools", "response_format"})
    )
    handle = openai_model()
    assert await ask(handle) == Verdict(**GOOD)
    last = fake_openai.last_body
    assert not last.get("tools")
    assert not last.get("response_format")
    assert "JSON schema" in last["messages"][-1]["content"]
    assert MEMO.start(endpoint_of(handle.model)) is Rung.PROSE_JSON


async def test_an_answer_the_schema_rejects_goes_to_the_next_rung(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("Verdict", {"passed": "perhaps", "score": 7})]),
        Reply('Sure.\n```json\n{"passed": false, "score": 0.2}\n```'),
    )
    handle = openai_model()
    assert await ask(handle) == Verdict(passed=False, score=0.2)
    # The forced tool was honoured (only its answer was wrong): the next call starts there.
    assert MEMO.start(endpoint_of(handle.model)) is Rung.FORCED_TOOL


async def test_prose_with_no_json_is_no_answer_with_its_reason(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.default = StructuredAnswers({"Verdict": GOOD}, style="prose")
    answer = await ask(openai_model())
    assert isinstance(answer, NoAnswer)
    assert "no JSON" in answer.reason
    assert len(fake_openai.chat_requests) == 4  # every rung, once


async def test_another_failure_is_the_providers_error_not_a_step_down(
    fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle]
) -> None:
    fake_openai.script(Reply.unauthorized())
    with pytest.raises(openai.APIStatusError) as raised:
        await ask(openai_model())
    assert getattr(raised.value, "status_code", None) == 401
    assert len(fake_openai.chat_requests) == 1


def test_the_thinking_presets_skip_the_forced_tool() -> None:
    assert not forced_tool_choice_supported("https://api.deepseek.com/v1", "deepseek-reasoner")
    assert forced_tool_choice_supported("https://api.deepseek.com/v1", "deepseek-chat")
    assert not forced_tool_choice_supported("https://api.moonshot.cn/v1/", "kimi-k2-thinking")
    assert forced_tool_choice_supported("http://127.0.0.1:8000/v1", "deepseek-reasoner")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('Here:\n```json\n{"a": 1}\n```', {"a": 1}),
        ('I think {"a": 2} fits.', {"a": 2}),
        ('```\n{"a": 3}\n```\nand {"b": 4}', {"a": 3}),
        ('<think>maybe {"a": 0}</think>The answer is {"a": 5}.', {"a": 5}),
        ('<think>{"a": 0}</think>It passes; the question is factual.', None),
        ("It passes; the question is factual.", None),
    ],
)
def test_json_is_read_from_a_fence_or_the_prose_never_from_words(
    text: str, found: dict[str, int] | None
) -> None:
    assert json_object_in(text) == found
