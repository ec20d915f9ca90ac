"""Whatever a model writes and whatever its critic says, the badge follows the audit this code
runs: generated drafts (a sentence true to the notes, or one unrelated to them, each citing
the source that holds it, another source, one that does not exist, or nothing) go through the
real graph, the real ``ChatOpenAI`` client over HTTP and the shared notes server, with a critic
that passes everything. The reply is "checked" exactly when a draft it wrote (the first, or the
one revision) had every sentence cited to the source that holds it; otherwise it is "partly
supported" when the last draft has such a sentence and "not in your notes" when it has none;
and only such sentences are remembered."""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.runtime import events as ev
from agents.structured import MEMO
from tests.paper_pilot.test_stage_endings_property import one_turn
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.structured_answers import message_texts

ROUTE = {"intent": "factual", "confidence": 0.9, "entities": ["LoRA"],
         "reformulated_query": "What is LoRA?"}  # fmt: skip
TRUE = "With a rank of 8 or 16, LoRA trains well under one percent of the parameters of the model"
UNRELATED = "Quillfeather herons nest in reed beds above slow water every spring"
PASS = Reply(tool_calls=[ToolCall("CriticVerdict", {"score": 1.0, "passed": True})])

part = st.tuples(st.sampled_from(["true", "unrelated"]),
                 st.sampled_from(["own", "none", "other", "missing"]))  # fmt: skip
draft = st.lists(part, min_size=1, max_size=3)


def written(parts: list[tuple[str, str]]) -> Any:
    """The synthesis reply: each part cited as told, reading the request's source numbers."""

    def reply(body: dict[str, Any]) -> Reply:
        sources = dict(re.findall(r"^\[(\d+)\] (.+)$", message_texts(body), re.M))
        own = next((n for n, line in sources.items() if "one percent" in line), "1")
        other = next((n for n in sources if n != own), "9")
        cite = {"own": f" [{own}]", "none": "", "other": f" [{other}]", "missing": " [42]"}
        return Reply(" ".join(f"{TRUE if kind == 'true' else UNRELATED}{cite[c]}." for kind, c in parts))  # fmt: skip

    return reply


def good(parts: list[tuple[str, str]]) -> bool:
    return all(p == ("true", "own") for p in parts)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(first=draft, second=draft)
def test_the_badge_is_what_the_audit_found_whatever_the_critic_said(
    fake_openai: FakeOpenAI,
    openai_model: Any,
    notes_settings: dict[str, Any],
    first: list[tuple[str, str]],
    second: list[tuple[str, str]],
) -> None:
    MEMO.forget()
    fake_openai.reset()
    fake_openai.script(Reply(tool_calls=[ToolCall("RouteDecision", ROUTE)]),
                       written(first), PASS, written(second), PASS)  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        events, store, data_dir = asyncio.run(one_turn(Path(folder), notes_settings, openai_model()))  # fmt: skip
        try:
            end = events[-1]
            assert isinstance(end, ev.RunFinished), end
            reply = store.get_message(end.leaf_id)
            with Memory(memory_path(data_dir)) as memory:
                facts = [fact.text for fact in memory.all()]
        finally:
            store.close()
    last = first if good(first) else second
    expected = (
        "checked" if good(first) or good(second)
        else "partly supported" if ("true", "own") in last
        else "not in your notes"
    )  # fmt: skip
    trace = reply.meta["paper_pilot"]
    assert trace["settled"] == expected, (first, second, trace["audit"])
    assert (reply.meta["check"]["state"] == "checked") == (expected == "checked")
    assert all("Quillfeather" not in fact for fact in facts)
    assert bool(facts) == (expected != "not in your notes")
    if expected == "not in your notes":
        assert "Quillfeather" not in reply.content
