"""Follow-ups read the branch they are asked on; facts are remembered across conversations,
recalled as prior knowledge (never cited), and not saved after a forced pass."""

from __future__ import annotations

from pathlib import Path

from agents.offline import OfflineChatModel, OfflineTurn, Reply
from agents.profiles.paper_pilot.graph import ALREADY_LEARNED
from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.profiles.paper_pilot.offline import STEPS, synthesize_text
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import ask


async def test_a_follow_up_resolves_that_to_what_the_branch_named(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    await ask(runtime, store, conversation.id, "What is LoRA?")
    turn = await ask(
        runtime, store, conversation.id, "and how does that compare with full fine-tuning?"
    )
    assert turn.trace["intent"] == "follow_up"
    slots = next(s for s in turn.trace["stages"] if s["stage"] == "route")
    assert "LoRA" in slots["query"]
    assert "that" not in slots["query"].split()
    assert slots["entities"][0] == "LoRA"
    assert "ml/lora.md`" in turn.reply.content


async def test_a_follow_up_finds_a_topic_named_without_capitals(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    await ask(runtime, store, conversation.id, "What is known about quantization?")
    turn = await ask(runtime, store, conversation.id, "what are its limits?")
    assert turn.trace["intent"] == "follow_up"
    slots = next(s for s in turn.trace["stages"] if s["stage"] == "route")
    assert "quantization" in slots["query"]
    assert "ml/quantization.md`" in turn.reply.content.partition("**Sources**")[2]


async def test_a_fork_follows_up_on_its_own_branch(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore],
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    first = await ask(runtime, store, conversation.id, "What is LoRA?")
    root_user = store.path_to_root(first.reply.id)[0]
    # A sibling first question on another branch, then the same follow-up below it.
    second = await ask(runtime, store, conversation.id, "What is DPO?", parent=None)
    store.set_active_leaf(conversation.id, second.reply.id)
    follow = await ask(runtime, store, conversation.id, "what are its limits?")
    slots = next(s for s in follow.trace["stages"] if s["stage"] == "route")
    assert "DPO" in slots["query"]
    assert "LoRA" not in slots["query"]
    assert root_user.content == "What is LoRA?"


async def test_facts_are_recalled_in_a_later_conversation_as_prior_knowledge(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore], data_dir: Path
) -> None:
    runtime, store = notes_runtime
    first = store.create_conversation("paper-pilot", "one")
    await ask(runtime, store, first.id, "What is LoRA?")
    with Memory(memory_path(data_dir)) as memory:
        facts = memory.all()
    assert facts
    assert all(f.conversation_id == first.id for f in facts)

    later = store.create_conversation("paper-pilot", "two")
    turn = await ask(runtime, store, later.id, "How many parameters does LoRA train?")
    recalled = next(s for s in turn.trace["stages"] if s["stage"] == "load_memory")
    assert recalled["recalled"] >= 1
    body, _, sources = turn.reply.content.partition("**Sources**")
    # What was recalled is what this answer cites again: said once, and the user told so.
    assert ALREADY_LEARNED in body
    assert "From what you learned before" not in body
    assert all(body.count(fact.text.rstrip(".")) <= 1 for fact in facts)
    assert "memory" not in sources  # prior knowledge is never a cited source

    await ask(runtime, store, later.id, "What is LoRA?")  # the same facts again
    with Memory(memory_path(data_dir)) as memory:
        assert len(memory.all()) == len({f.text for f in memory.all()})  # no near-duplicates


def _rejecting_critic(turn: OfflineTurn) -> Reply | None:
    return turn.answer({"score": 0.1, "passed": False, "feedback": "the citations do not hold"})


async def test_retries_then_a_forced_pass_that_is_not_remembered(
    notes_runtime: tuple[AgentRuntime, SqliteConversationStore], data_dir: Path
) -> None:
    runtime, store = notes_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    model = OfflineChatModel().with_steps({**STEPS, "critic": _rejecting_critic})
    turn = await ask(runtime, store, conversation.id, "What is LoRA?", model=model)

    assert turn.trace["retries"] == 2
    assert turn.trace["forced"]
    assert [s["stage"] for s in turn.trace["stages"]].count("route") == 3
    assert sum("retry" in line for line in turn.stages) >= 2
    assert "could not confirm every claim" in turn.reply.content
    with Memory(memory_path(data_dir)) as memory:
        assert memory.all() == []


LORA_NOTES = [
    {"title": "LoRA: low-rank adaptation", "doc_id": "ml/lora",
     "text": "LoRA freezes the model and learns a low-rank update. It trains under one percent "
             "of the parameters."},
    {"title": "Plan-and-execute", "doc_id": "agents/plan_and_execute",
     "text": "It plans every step up front, then executes the steps with a cheaper model."},
]  # fmt: skip


def test_prior_knowledge_adds_only_what_the_answer_does_not_say() -> None:
    fresh = "QLoRA quantizes the frozen base model to four bits."
    said = "LoRA freezes the model and learns a low-rank update."
    answer = synthesize_text("How does LoRA learn its update?", LORA_NOTES, [said, fresh])
    body, _, prior = answer.partition("_From what you learned before:_")
    assert said.rstrip(".") in body
    assert fresh in prior
    assert said not in prior

    repeated = synthesize_text("How does LoRA learn its update?", LORA_NOTES, [said])
    assert "From what you learned before" not in repeated
    assert synthesize_text("How does LoRA learn its update?", LORA_NOTES, []).count("_") == 0


def test_a_passage_about_another_named_thing_is_not_cited() -> None:
    answer = synthesize_text("How does LoRA plan its steps?", LORA_NOTES, [])
    assert "[1]" in answer
    assert "[2]" not in answer
