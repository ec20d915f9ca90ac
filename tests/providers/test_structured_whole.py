"""A structured answer is read only when it is the schema's answer whole
(:mod:`agents.structured.whole_answer`): generated answers, each valid or off by one member of
the class (a number or a boolean written as a string, a boolean as a number, a required field
missing, a field the schema does not name at the top or nested, a value out of range),
delivered the ways models answer (a forced tool call, a ```json fence, JSON then prose), over
HTTP through the real client. A valid answer is read as sent; any other is never read (the
call ends with ``NoAnswer``, the stage's fallback), so no verdict passes on an answer that did
not validate."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from agents.providers import ChatModelHandle
from agents.structured import MEMO, NoAnswer, structured_call
from agents.structured.whole_answer import NotWhole, validated_whole
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


class Cite(BaseModel):
    source: str
    page: int = 0


class Verdict(BaseModel):
    passed: bool
    score: float = Field(ge=0.0, le=1.0)
    kind: Literal["claim", "question"] = "claim"
    cites: list[Cite] = Field(default_factory=list)


MUTATIONS = (
    "none",
    "number as string",
    "boolean as string",
    "boolean as number",
    "missing required",
    "extra field",
    "extra nested field",
    "out of range",
)
STYLES = (
    "tool",
    "fence",
    "json then prose",
    "said twice",
    "example then answer",
    "called twice",
    "called twice differently",
)
"""How the answer is delivered; ``said twice``: the same object in a fence and again in the
prose (one answer); ``example then answer``: another valid answer first, as an example (two
different answers: ambiguous, never read); ``called twice``: the tool called twice alike (one
answer), or ``differently`` (ambiguous)."""


@st.composite
def answers(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], str]:
    """``(valid answer, the answer sent, its mutation)``."""
    valid: dict[str, Any] = {
        "passed": draw(st.booleans()),
        "score": draw(st.sampled_from([0, 0.25, 0.5, 1, 0.9])),
        "kind": draw(st.sampled_from(["claim", "question"])),
        "cites": [
            {"source": s, "page": p}
            for s, p in draw(
                st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 9)), max_size=2)
            )
        ],
    }
    mutation = draw(st.sampled_from(MUTATIONS))
    sent = json.loads(json.dumps(valid))
    if mutation == "number as string":
        sent["score"] = str(sent["score"])
    elif mutation == "boolean as string":
        sent["passed"] = draw(st.sampled_from(["true", "yes", "on", "1", "false"]))
    elif mutation == "boolean as number":
        sent["passed"] = draw(st.sampled_from([1, 0]))
    elif mutation == "missing required":
        del sent[draw(st.sampled_from(["passed", "score"]))]
    elif mutation == "extra field":
        sent[draw(st.sampled_from(["verdict", "pass", "reasoning"]))] = True
    elif mutation == "extra nested field":
        sent["cites"] = [*sent["cites"], {"source": "d", "page": 1, "quote": "x"}]
    elif mutation == "out of range":
        sent["score"] = draw(st.sampled_from([1.5, -0.1, 7]))
    return valid, sent, mutation


def _reply(sent: dict[str, Any], style: str) -> Reply:
    text = json.dumps(sent)
    if style == "tool":
        return Reply(tool_calls=[ToolCall("Verdict", text)])
    if style == "fence":
        return Reply(f"Here it is:\n```json\n{text}\n```")
    if style.startswith("called twice"):
        other = json.dumps({"passed": not sent.get("passed"), "score": 0.5})
        second = other if style.endswith("differently") else text
        return Reply(tool_calls=[ToolCall("Verdict", text), ToolCall("Verdict", second)])
    if style == "said twice":
        return Reply(f"```json\n{text}\n```\nSo: {text}")
    if style == "example then answer":
        example = json.dumps({"passed": not sent.get("passed"), "score": 0.5})
        return Reply(f"For example {example} would be a verdict. Mine: {text}")
    return Reply(f"{text}\nThat is my verdict.")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=answers(), style=st.sampled_from(STYLES))
async def test_only_a_whole_valid_answer_is_read(
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    case: tuple[dict[str, Any], dict[str, Any], str],
    style: str,
) -> None:
    valid, sent, mutation = case
    MEMO.forget()
    fake_openai.reset()
    fake_openai.script(*[_reply(sent, style)] * 4)  # the same answer on every rung

    answer = await structured_call(
        openai_model().model, Verdict, [HumanMessage("Draft: LoRA adds adapters [1].")], name="t"
    )

    ambiguous = style in ("example then answer", "called twice differently")
    if mutation == "none" and not ambiguous:
        assert answer == Verdict.model_validate(valid)
    elif mutation == "none":
        assert isinstance(answer, NoAnswer)  # two different valid answers: ambiguous
    else:
        assert isinstance(answer, NoAnswer), (mutation, answer)
        assert answer.reason


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    case=answers(),
    ending=st.sampled_from(["refusal", "length", "content_filter", "error"]),
    cut=st.floats(0.2, 1),
    style=st.sampled_from(["tool", "fence"]),
)
async def test_an_answer_that_ended_marked_is_never_read(
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    case: tuple[dict[str, Any], dict[str, Any], str],
    ending: str,
    cut: float,
    style: str,
) -> None:
    """A refused, filtered, cut (``length`` mid-JSON or after it whole) or unfinished answer is
    no answer, however much of it is valid JSON: the call ends with the outcome named."""
    valid, _sent, _mutation = case
    text = json.dumps(valid)
    text = text[: max(1, int(cut * len(text)))]
    reply = _reply_text(text, style)
    if ending == "refusal":
        reply.refusal = "I can't help with that."
    else:
        reply.finish_reason = ending
    MEMO.forget()
    fake_openai.reset()
    fake_openai.script(*[reply] * 4)

    answer = await structured_call(
        openai_model().model, Verdict, [HumanMessage("Draft: LoRA adds adapters [1].")], name="t"
    )

    assert isinstance(answer, NoAnswer)
    assert answer.marked is not None
    assert len(fake_openai.chat_requests) == 1  # another rung would end the same way


def _reply_text(text: str, style: str) -> Reply:
    if style == "tool":
        return Reply(tool_calls=[ToolCall("Verdict", text)])
    return Reply(f"```json\n{text}\n```")


@settings(max_examples=200, deadline=None)
@given(case=answers())
def test_the_rule_itself(case: tuple[dict[str, Any], dict[str, Any], str]) -> None:
    valid, sent, mutation = case
    if mutation == "none":
        assert validated_whole(Verdict, sent) == Verdict.model_validate(valid)
        return
    with pytest.raises(NotWhole, match=r"\w"):
        validated_whole(Verdict, sent)
