"""A chat controller on a real SQLite store and a real runtime, for tests without a Pilot."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from weaver_tui.core.chat_controller import ChatController
from weaver_tui.core.chat_controller.controller import ChatEvent
from weaver_tui.core.chat_state import ChatState


def offline() -> Callable[[], Awaitable[ChatModelHandle]]:
    handle = make_chat_model(ProviderConfig(provider="offline"))

    async def model() -> ChatModelHandle:
        return handle

    return model


def controller(
    store: SqliteConversationStore,
    data_dir: Path,
    model: Callable[[], Awaitable[ChatModelHandle]],
    profile: str = "ide-helper",
    profile_settings: Mapping[str, Any] | None = None,
) -> ChatController:
    """A controller of a new chat of ``profile``: the runtime holds its turn locks in
    ``data_dir``, reads ``profile_settings`` (the user's ``roles`` ...) and has no
    checkpointer (no turn here pauses)."""

    @contextlib.asynccontextmanager
    async def open_runtime() -> AsyncIterator[AgentRuntime]:
        runtime = AgentRuntime(store, None, data_dir=data_dir, profile_settings=profile_settings)
        try:
            yield runtime
        finally:
            await runtime.aclose()

    return ChatController(
        ChatState(store, profile), open_runtime=open_runtime, model=model, project_root=data_dir
    )


async def drain(events: AsyncIterator[ChatEvent]) -> list[ChatEvent]:
    return [event async for event in events]
