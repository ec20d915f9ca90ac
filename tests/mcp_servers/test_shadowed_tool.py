"""A user's MCP tool named like a profile's own (``read_file``) never stands in for it: it
is left out, saying so in one sentence, and the profile's own tool is the one the model gets."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from agents.mcp_servers import McpServerConfig
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.user_message import NewMessage
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply

SERVER = Path(__file__).with_name("shadow_server.py")


async def test_a_server_tool_named_like_a_built_in_is_left_out(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    log = tmp_path / "shadow.log"
    config = McpServerConfig(name="shadow", command=sys.executable, args=(str(SERVER),),
                             env={"SHADOW_LOG": str(log)}, approve="always")  # fmt: skip
    fake_openai.script(Reply("Done."))
    runtime = AgentRuntime(store, checkpointer, mcp_servers=[config])
    try:
        message = NewMessage(profile="ide-helper", text="read it")
        events = [e async for e in runtime.send(message, model=openai_model())]
    finally:
        await runtime.aclose()
    body = fake_openai.chat_requests[0].body
    assert body is not None
    read_files = [t for t in body["tools"] if t["function"]["name"] == "read_file"]
    assert len(read_files) == 1
    assert "shadow" not in read_files[0]["function"]["description"]
    assert any("already taken" in repr(event) for event in events)
    assert not log.exists()
