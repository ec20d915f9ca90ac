"""paper-pilot's warm-up starts its knowledge server before the first question, and that
question's turn asks the same server (one process), so the turn never waits for a start."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from agents.profile_registry import get_profile
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.paper_pilot.conftest import ask
from tests.support.knowledge_processes import knowledge_servers

BOUND_S = 60.0
"""Bound on a wait for the server (a real subprocess that builds its index)."""


async def eventually(predicate: Callable[[], bool]) -> None:
    deadline = time.monotonic() + BOUND_S
    while not predicate():
        assert time.monotonic() < deadline, "the expected state never came"
        await asyncio.sleep(0.05)


async def test_the_warm_up_starts_the_knowledge_server_that_the_first_question_uses(
    pilot_runtime: tuple[AgentRuntime, SqliteConversationStore], data_dir: Path
) -> None:
    runtime, store = pilot_runtime
    conversation = store.create_conversation("paper-pilot", "research")
    assert knowledge_servers(data_dir) == []
    runtime.warm_up(get_profile("paper-pilot"))
    await eventually(lambda: len(knowledge_servers(data_dir)) == 1)
    started = knowledge_servers(data_dir)
    turn = await ask(runtime, store, conversation.id, "What is LoRA?")
    assert turn.reply.meta.get("sources"), turn.stages  # the server answered the question
    assert knowledge_servers(data_dir) == started


async def test_a_profile_without_a_warm_up_starts_nothing(
    pilot_runtime: tuple[AgentRuntime, SqliteConversationStore], data_dir: Path
) -> None:
    runtime, _store = pilot_runtime
    profile = get_profile("ide-helper")
    assert profile.warm_up is None
    runtime.warm_up(profile)
    assert knowledge_servers(data_dir) == []
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("mcp:")]
