"""A paper-pilot turn whose first draft the critic rejects, scripted for the local server:
the retry's draft passes. Shared by the tests of every front end that shows the answer."""

from __future__ import annotations

from typing import Any

from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall

REJECTED = "LoRA replaces every weight of the model with a new one [1]."
SETTLED = "LoRA trains two small low-rank matrices beside each frozen weight [1]."


def decision(name: str, **args: Any) -> Reply:
    return Reply(tool_calls=[ToolCall(name, args)])


def route() -> Reply:
    return decision(
        "RouteDecision",
        intent="factual",
        confidence=0.9,
        reason="a definition",
        entities=["LoRA"],
        reformulated_query="What is LoRA?",
    )


def verdict(passed: bool, feedback: str = "") -> Reply:
    return decision("CriticVerdict", score=0.9 if passed else 0.1, passed=passed, feedback=feedback)


def script_rejected_then_settled(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        route(),
        Reply(REJECTED),
        verdict(False, "the source does not say every weight is replaced"),
        decision("Refinement", query="LoRA low-rank adaptation"),
        route(),
        Reply(SETTLED),
        verdict(True),
    )
