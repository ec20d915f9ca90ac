"""Follow-ups read the branch they are asked on; facts are remembered across conversations,
recalled as prior knowledge (never cited), and not saved after a forced pass."""

from __future__ import annotations

from pathlib import Path

from agents.offline import OfflineChatModel
from agents.offline.conversation import Conversation
from agents.offline.reply import PlannedCall, Reply
from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.profiles.paper_pilot.offline import RULES
from tests.paper_pilot.conftest import ask


async def test_a_follow_up_resolves_that_to_what_the_branch_named(pilot_runtime):
    runtime, store = pilot_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    await ask(runtime, store, conversation.id, "What is LoRA?")
    turn = await ask(
        runtime, store, conversation.id, "and how does that compare with full fine-tuning?"
    )
    assert turn.trace["intent"] == "follow_up"
    slots = next(s for s in turn.trace["stages"] if s["stage"] == "slot_fill")
    assert "LoRA" in slots["query"] and "that" not in slots["query"].split()
    assert slots["entities"] == ["LoRA", "full fine-tuning"]
    assert (
        "`ml/lora`" in turn.reply.content and "Compared with full fine-tuning" in turn.reply.content
    )


async def test_a_fork_follows_up_on_its_own_branch(pilot_runtime):
    runtime, store = pilot_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    first = await ask(runtime, store, conversation.id, "What is LoRA?")
    root_user = store.path_to_root(first.reply.id)[0]
    # A sibling first question on another branch, then the same follow-up below it.
    second = await ask(runtime, store, conversation.id, "What is DPO?", parent=None)
    store.set_active_leaf(conversation.id, second.reply.id)
    follow = await ask(runtime, store, conversation.id, "what are its limits?")
    slots = next(s for s in follow.trace["stages"] if s["stage"] == "slot_fill")
    assert "DPO" in slots["query"] and "LoRA" not in slots["query"]
    assert root_user.content == "What is LoRA?"


async def test_facts_are_recalled_in_a_later_conversation_as_prior_knowledge(
    pilot_runtime, data_dir: Path
):
    runtime, store = pilot_runtime
    first = store.create_conversation("paper-pilot", "one")
    await ask(runtime, store, first.id, "What is LoRA?")
    with Memory(memory_path(data_dir)) as memory:
        facts = memory.all()
    assert facts and all(f.conversation_id == first.id for f in facts)

    later = store.create_conversation("paper-pilot", "two")
    turn = await ask(runtime, store, later.id, "How many parameters does LoRA train?")
    recalled = next(s for s in turn.trace["stages"] if s["stage"] == "load_memory")
    assert recalled["recalled"] >= 1
    body, _, sources = turn.reply.content.partition("**Sources**")
    assert "From what you learned before" in body
    assert "memory" not in sources  # prior knowledge is never a cited source

    await ask(runtime, store, later.id, "What is LoRA?")  # the same facts again
    with Memory(memory_path(data_dir)) as memory:
        assert len(memory.all()) == len({f.text for f in memory.all()})  # no near-duplicates


def _rejecting_critic(conv: Conversation) -> Reply | None:
    if "CriticVerdict" in conv.tools:
        args = {"score": 0.1, "passed": False, "feedback": "the citations do not hold"}
        return Reply(calls=(PlannedCall("CriticVerdict", args),))
    return None


async def test_retries_then_a_forced_pass_that_is_not_remembered(pilot_runtime, data_dir: Path):
    runtime, store = pilot_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    model = OfflineChatModel().with_rules([_rejecting_critic, *RULES])
    turn = await ask(runtime, store, conversation.id, "What is LoRA?", model=model)

    assert turn.trace["retries"] == 2 and turn.trace["forced"]
    assert [s["stage"] for s in turn.trace["stages"]].count("route") == 3
    assert sum("retry" in line for line in turn.stages) >= 2
    assert "could not confirm every claim" in turn.reply.content
    with Memory(memory_path(data_dir)) as memory:
        assert memory.all() == []
