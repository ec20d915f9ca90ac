"""Each intent takes its strategy end to end on the offline model, through the real MCP
knowledge server on the bundled notes; answers cite what was retrieved."""

from __future__ import annotations

import re

import pytest

from agents.profiles.paper_pilot.graph import renumber_citations
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import ask


@pytest.mark.parametrize(
    ("question", "intent", "strategy", "cited_doc"),
    [
        ("What is LoRA?", "factual", "direct", "ml/lora"),
        ("Compare DPO and RLHF in terms of cost", "comparative", "rewoo", "ml/rlhf"),
        ("What is known about quantization?", "exploratory", "react", "ml/quantization"),
        (
            "What does the method that skips the reward model compare against?",
            "multi_hop",
            "plan_and_execute",
            "ml/dpo",
        ),
    ],
)
async def test_each_intent_runs_its_strategy_and_cites_its_sources(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
    question: str,
    intent: str,
    strategy: str,
    cited_doc: str,
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await ask(runtime, store, conversation.id, question)

    assert (turn.trace["intent"], turn.trace["strategy"]) == (intent, strategy)
    assert turn.trace["verdict"]["passed"]
    assert not turn.trace["forced"]
    body, _, sources = turn.reply.content.partition("**Sources**")
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", body)}
    assert cited == set(range(1, len(cited) + 1)), turn.reply.content  # numbered from 1
    assert f"{cited_doc}.md`" in sources  # the file, to open
    assert len(re.findall(r"^- \[\d+\] ", sources, re.M)) == len(cited)  # each cited source listed
    assert any(s["doc_id"] == cited_doc for s in turn.reply.meta["sources"])
    names = [stage["stage"] for stage in turn.trace["stages"]]
    assert names[:3] == ["load_memory", "scope", "route"]  # intent and slots: one stage, one call
    assert "critic" in names
    assert any(line.startswith("route: intent " + intent) for line in turn.stages)
    assert any("retrieve:" in line for line in turn.stages)


async def test_the_comparison_plans_every_query_and_retrieves_them_together(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await ask(runtime, store, conversation.id, "Compare DPO and RLHF in terms of cost")
    rewoo = next(stage for stage in turn.trace["stages"] if stage["stage"] == "rewoo")
    assert rewoo["queries"] == ["DPO cost", "RLHF cost"]


@pytest.mark.parametrize(
    "question",
    [
        "Compare ReWOO and ReAct: which uses fewer LLM calls?",
        "ReWOO vs ReAct, which is cheaper?",
        "difference between ReWOO and ReAct — which plans first?",
    ],
)
async def test_a_comparison_ends_each_named_thing_where_the_question_goes_on(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore], question: str
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await ask(runtime, store, conversation.id, question)
    slots = next(s for s in turn.trace["stages"] if s["stage"] == "route")
    assert slots["entities"] == ["ReWOO", "ReAct"]
    rewoo = next(stage for stage in turn.trace["stages"] if stage["stage"] == "rewoo")
    assert [q.split()[0] for q in rewoo["queries"]] == ["ReWOO", "ReAct"]


async def test_a_question_the_notes_do_not_cover_says_so_and_cites_nothing(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await ask(runtime, store, conversation.id, "What is the capital of France?")
    assert turn.trace["settled"] == "not in your notes"
    assert "[1]" not in turn.reply.content
    assert "**Sources**" not in turn.reply.content
    assert turn.reply.meta["sources"] == []


def test_citations_are_numbered_in_the_order_they_first_appear() -> None:
    draft = "B is so [3]. A is so [2], and B again [3]. Nothing has [9]."
    text, cited = renumber_citations(draft, available=4)
    assert text == "B is so [1]. A is so [2], and B again [1]. Nothing has [9]."
    assert cited == [3, 2]
