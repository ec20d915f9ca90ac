"""A paper-pilot turn's trace goes to the log as one JSON line per stage, in order, each with
its time and, for a stage that asked the model, the model's name; the user's words and the
notes' text travel only in the ``content`` field, which the log's redaction setting covers.
The reply's trace view (what the app's "Reply trace" shows) names the same stages."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.paper_pilot.trace_view import MODEL_STAGES, trace_markdown
from agents.runtime import events as ev
from agents.structured import MEMO
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

QUESTION = "What is LoRA, in one sentence please?"
ANSWER = "LoRA trains well under one percent of the parameters of the model [2]."
CONTENT_ONLY = {"content"}
IDS = {"stage", "step", "ms", "model", "conversation_id", "message_id"}


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


async def test_each_stage_is_one_log_line_with_its_time_and_model(
    notes_runtime: Any, fake_openai: FakeOpenAI, openai_model: Any, caplog: pytest.LogCaptureFixture
) -> None:
    runtime, store = notes_runtime
    route = {"intent": "factual", "confidence": 0.9, "entities": ["LoRA"],
             "reformulated_query": QUESTION}  # fmt: skip
    fake_openai.script(
        Reply(tool_calls=[ToolCall("RouteDecision", route)]),
        lambda body: Reply(ANSWER.replace("[2]", f"[{_number_of(body, 'one percent')}]")),
        Reply(tool_calls=[ToolCall("CriticVerdict", {"score": 0.9, "passed": True})]),
    )
    conversation = store.create_conversation("paper-pilot", "research")
    user = store.add_message(conversation.id, "user", QUESTION, None)
    with caplog.at_level(logging.INFO, logger="agents.profiles.paper_pilot.trace_view"):
        events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
                  user_message_id=user.id, model=openai_model())]  # fmt: skip
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished
    reply = store.get_message(finished[-1].leaf_id)

    lines = [r for r in caplog.records if r.getMessage() == "paper-pilot stage"]
    stages = [getattr(r, "stage") for r in lines]  # noqa: B009
    assert stages == [s["stage"] for s in reply.meta["paper_pilot"]["stages"]]
    assert stages[:3] == ["load_memory", "scope", "route"]
    assert {"synthesize", "critic", "audit", "save_memory"} <= set(stages)
    assert [getattr(r, "step") for r in lines] == list(range(1, len(lines) + 1))  # noqa: B009
    for record in lines:
        assert isinstance(getattr(record, "ms"), float)  # noqa: B009
        model = getattr(record, "model")  # noqa: B009
        assert model == ("fake-model" if getattr(record, "stage") in MODEL_STAGES else None)  # noqa: B009
        assert getattr(record, "message_id") == user.id  # noqa: B009
        # The words of the question and the notes only under "content" (redacted by setting).
        for key, value in vars(record).items():
            if isinstance(value, str) and key not in CONTENT_ONLY and key not in ("msg", "message"):
                assert "LoRA" not in value, key
    assert any("LoRA" in getattr(r, "content") for r in lines)  # noqa: B009

    shown = trace_markdown(reply.meta)
    assert shown is not None
    assert all(f"**{stage}**" in shown for stage in stages)
    assert "model `fake-model`" in shown


def _number_of(body: dict[str, Any], words: str) -> int:
    import re

    text = str(body["messages"][-1]["content"])
    return next(int(n) for n, line in re.findall(r"^\[(\d+)\] (.+)$", text, re.M) if words in line)


stage_names = st.sampled_from(["load_memory", "route", "direct", "synthesize", "critic", "audit"])


@settings(max_examples=100, deadline=None)
@given(
    stages=st.lists(
        st.fixed_dictionaries({"stage": stage_names, "ms": st.floats(0, 1e4)},
                              optional={"query": st.text(max_size=20),
                                        "queries": st.lists(st.text(max_size=10), max_size=3),
                                        "found": st.lists(st.fixed_dictionaries(
                                            {"title": st.text(max_size=10),
                                             "score": st.one_of(st.none(), st.floats(-5, 5))}),
                                            max_size=3)}),
        max_size=8,
    ),
    verdict=st.one_of(st.none(), st.fixed_dictionaries({"passed": st.booleans(), "score": st.floats(0, 1)})),
)  # fmt: skip
def test_any_recorded_trace_is_shown_with_every_stage_in_order(
    stages: list[dict[str, Any]], verdict: dict[str, Any] | None
) -> None:
    meta = {"paper_pilot": {"stages": stages, "verdict": verdict, "intent": None}}
    shown = trace_markdown(meta)
    assert shown is not None
    at = 0
    for n, stage in enumerate(stages, 1):
        at = shown.index(f"{n}. **{stage['stage']}**", at)
    assert trace_markdown({}) is None
