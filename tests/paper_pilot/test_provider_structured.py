"""paper-pilot on a provider's model: the real ChatOpenAI client against the local
OpenAI-compatible server, playing providers that refuse a forced tool choice, ignore it, take
no tools, or answer prose with no JSON at all."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from agents.profiles.paper_pilot import prompts
from agents.profiles.paper_pilot.memory import Memory, memory_path
from agents.profiles.paper_pilot.traits import reply_badge
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import Turn
from tests.support.fake_openai import FakeOpenAI
from tests.support.structured_answers import StructuredAnswers, forced_tool, message_texts

SLOTS = {"entities": ["LoRA"], "dimensions": [], "constraints": [],
         "reformulated_query": "What is LoRA?"}  # fmt: skip
ROUTE = {"intent": "factual", "confidence": 0.9, "reason": "one thing asked about", **SLOTS}
PASSED = {"score": 0.95, "passed": True, "feedback": ""}
ANSWER = "LoRA trains small low-rank matrices beside the frozen weights [1]."
ANSWERS: dict[str, Any] = {"RouteDecision": ROUTE, "CriticVerdict": PASSED}


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    return tmp_path / "config"


@pytest.fixture
async def runtime(
    tmp_path: Path, config_dir: Path, notes_settings: dict[str, Any]
) -> AsyncIterator[tuple[AgentRuntime, SqliteConversationStore]]:
    """A runtime whose paper-pilot asks the shared notes server."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    store = SqliteConversationStore(tmp_path / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "checkpoints.db")) as saver:
        yield AgentRuntime(store, saver, config_dir=config_dir, data_dir=tmp_path / "data",
                           profile_settings=notes_settings), store  # fmt: skip
    store.close()


async def provider_turn(
    runtime: AgentRuntime, store: SqliteConversationStore, conversation_id: str, text: str,
    handle: ChatModelHandle,
) -> Turn:  # fmt: skip
    leaf = store.active_leaf(conversation_id)
    user = store.add_message(conversation_id, "user", text, leaf.id if leaf else None)
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation_id, user_message_id=user.id, model=handle
        )
    ]
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e.error.user_message for e in events if isinstance(e, ev.RunError)]
    reply = store.get_message(finished[-1].leaf_id)
    return Turn(events, reply, [f"{e.node}: {e.text}" for e in events if isinstance(e, ev.NodeStatus)])  # fmt: skip


def synthesis_bodies(fake: FakeOpenAI) -> list[dict[str, Any]]:
    return [
        r.body
        for r in fake.chat_requests
        if r.body and not r.body.get("tools") and prompts.SYNTHESIZE[:40] in message_texts(r.body)
    ]


async def test_a_thinking_model_that_refuses_a_forced_tool_still_answers_with_citations(
    runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    pilot, store = runtime
    fake_openai.default = StructuredAnswers(ANSWERS, ANSWER, refuses=frozenset({"tool_choice"}))
    conversation = store.create_conversation("paper-pilot", "research")
    handle = openai_model()
    turn = await provider_turn(pilot, store, conversation.id, "What is LoRA?", handle)

    assert turn.trace["intent"] == "factual"
    assert turn.trace["verdict"]["passed"]
    body, _, sources = turn.reply.content.partition("**Sources**")
    assert "[1]" in body
    assert "ml/lora.md`" in sources
    first = fake_openai.chat_bodies[0] or {}
    assert forced_tool(first) == "RouteDecision"  # it was tried once, and refused

    before = len(fake_openai.chat_requests)
    await provider_turn(pilot, store, conversation.id, "What is LoRA?", handle)
    later = [r.body or {} for r in fake_openai.chat_requests[before:]]
    assert later
    assert not any(forced_tool(b) for b in later)
    assert all(b.get("tool_choice") == "auto" for b in later if b.get("tools"))


async def test_json_in_a_fence_from_a_server_that_ignores_tool_choice_is_read(
    runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    pilot, store = runtime
    answers = StructuredAnswers(ANSWERS, ANSWER, style="fence")
    fake_openai.default = answers
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await provider_turn(pilot, store, conversation.id, "What is LoRA?", openai_model())

    assert (turn.trace["intent"], turn.trace["confidence"]) == ("factual", 0.9)
    assert turn.trace["verdict"] == PASSED
    assert not turn.trace["unchecked"]
    assert answers.asked == ["RouteDecision", "CriticVerdict"]  # one request each


async def test_prose_without_json_is_no_verdict_the_answer_unchecked_and_not_remembered(
    runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    pilot, store = runtime
    fake_openai.default = StructuredAnswers(ANSWERS, ANSWER, style="prose")
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await provider_turn(pilot, store, conversation.id, "What is LoRA?", openai_model())

    assert any(line.startswith("critic: no verdict") for line in turn.stages), turn.stages
    assert any(line.startswith("route: no intent read") for line in turn.stages)
    assert not any("passed (" in line or "factual (" in line for line in turn.stages)
    assert turn.trace["unchecked"]
    assert turn.trace["verdict"] is None
    assert turn.trace["intent"] != "factual"  # the prose said "factual": never read from words
    assert "Unchecked" in turn.reply.content
    assert reply_badge(turn.reply.meta) == "no intent · direct"  # the draft's mark says the rest
    assert turn.reply.meta["check"] == {"state": "unchecked", "note": "critic gave no verdict"}
    with Memory(memory_path(tmp_path / "data")) as memory:
        assert memory.all() == []


async def test_a_model_without_tools_still_runs_every_structured_step(
    runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    pilot, store = runtime
    fake_openai.default = StructuredAnswers(ANSWERS, ANSWER, refuses=frozenset({"tools"}))
    conversation = store.create_conversation("paper-pilot", "research")
    turn = await provider_turn(pilot, store, conversation.id, "What is LoRA?", openai_model())

    assert turn.trace["intent"] == "factual"
    assert turn.trace["verdict"]["passed"]
    assert "[1]" in turn.reply.content
    json_mode = [r.body for r in fake_openai.chat_requests if r.body and r.body.get("response_format")]  # fmt: skip
    assert json_mode
    assert all(not b.get("tools") for b in json_mode)


async def test_the_system_prompt_its_override_and_the_instructions_reach_every_call(
    runtime: tuple[AgentRuntime, SqliteConversationStore], fake_openai: FakeOpenAI, openai_model: Callable[..., ChatModelHandle],
    config_dir: Path,
) -> None:  # fmt: skip
    pilot, store = runtime
    (config_dir / "prompts").mkdir(parents=True)
    (config_dir / "prompts" / "paper-pilot.md").write_text("You are Lab Scout, terse and exact.")
    fake_openai.default = StructuredAnswers(ANSWERS, ANSWER)
    conversation = store.create_conversation(
        "paper-pilot", "research", meta={"instructions": "Write British English."}
    )
    await provider_turn(pilot, store, conversation.id, "What is LoRA?", openai_model())

    bodies = [r.body for r in fake_openai.chat_requests if r.body]
    assert len(bodies) >= 3  # route with slot filling, synthesis, critic
    for body in bodies:
        system = body["messages"][0]
        assert system["role"] == "system"
        assert "Lab Scout" in system["content"]
        assert "Write British English." in system["content"]
        assert "You are Paper Pilot" not in system["content"]  # the override replaces it


async def test_synthesis_of_a_follow_up_gets_the_users_words_and_the_recent_turns(
    runtime: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    pilot, store = runtime
    conversation = store.create_conversation("paper-pilot", "research")
    handle = openai_model()
    fake_openai.default = StructuredAnswers(ANSWERS, ANSWER)
    await provider_turn(pilot, store, conversation.id, "What is LoRA?", handle)
    follow = {"intent": "follow_up", "confidence": 0.8, "reason": "leans on the last turn",
              **SLOTS, "reformulated_query": "How much memory does LoRA save?"}  # fmt: skip
    fake_openai.default = StructuredAnswers({**ANSWERS, "RouteDecision": follow}, ANSWER)
    await provider_turn(pilot, store, conversation.id, "and how much memory does it save?", handle)

    synthesis = message_texts(synthesis_bodies(fake_openai)[-1])
    assert "Question: How much memory does LoRA save?" in synthesis
    assert "Original question: and how much memory does it save?" in synthesis
    assert "Earlier in this conversation:" in synthesis
    assert "user: What is LoRA?" in synthesis
