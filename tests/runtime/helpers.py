"""Small helpers for runtime tests: start a turn from a user text and collect its events."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import agents.providers.coalesced_stream as coalesced_stream
from agents.providers.chunk_merge import ChunkMerger
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunEvent, RunFinished
from storage.models import MessageRecord
from storage.sqlite_store import SqliteConversationStore


def new_turn(
    store: SqliteConversationStore, profile: str, text: str, parent_id: str | None = None
) -> MessageRecord:
    """A conversation (or the given parent's) with a committed user record."""
    if parent_id is None:
        conversation = store.create_conversation(profile, "test")
        return store.add_message(conversation.id, "user", text, None)
    parent = store.get_message(parent_id)
    return store.add_message(parent.conversation_id, "user", text, parent_id)


async def run(
    runtime: AgentRuntime,
    user: MessageRecord,
    model: Any,
    cancel: asyncio.Event | None = None,
    **kwargs: Any,
) -> list[RunEvent]:
    events: list[RunEvent] = []
    async for event in runtime.run_turn(
        conversation_id=user.conversation_id,
        user_message_id=user.id,
        model=model,
        cancel=cancel,
        **kwargs,
    ):
        events.append(event)
    return events


def active_leaf_id(store: SqliteConversationStore, conversation_id: str) -> str | None:
    """The id of the conversation's active leaf, or None when it has no messages."""
    leaf = store.active_leaf(conversation_id)
    return leaf.id if leaf else None


def finish_of(events: list[RunEvent]) -> RunFinished:
    """The event that ended the turn: the last one, which must be ``RunFinished``."""
    assert isinstance(events[-1], RunFinished), events[-1]
    return events[-1]


def of_type(events: list[RunEvent], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


class OneChunkPerEvent(ChunkMerger):
    """A merger that merges nothing: every event its own chunk, as a provider's stream is
    when no two of its events can merge (log-probabilities in each, say)."""

    def add(self, chunk: Any) -> tuple[dict[str, Any], ...]:
        return (*self.take(), chunk)

    def add_in_full(self, chunk: Any) -> tuple[dict[str, Any], ...]:
        return self.add(chunk)

    def add_content(self, chunk: dict[str, Any], content: str) -> tuple[dict[str, Any], ...]:
        return self.add(chunk)


def one_chunk_per_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """Streams of this test hand every event over as its own chunk (see OneChunkPerEvent)."""
    monkeypatch.setattr(coalesced_stream, "ChunkMerger", OneChunkPerEvent)
