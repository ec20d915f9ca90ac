"""Small helpers for runtime tests: start a turn from a user text and collect its events."""

from __future__ import annotations

import asyncio
from typing import Any

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunEvent
from storage.models import MessageRecord


def new_turn(store: Any, profile: str, text: str, parent_id: str | None = None) -> MessageRecord:
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


def of_type(events: list[RunEvent], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
