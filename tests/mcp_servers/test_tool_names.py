"""A server's tool name is an allowlist (:func:`agents.mcp_servers.tools.tool_name_allowed`):
letters, digits, ``_`` and ``-``, at most 64. A tool named otherwise (escape sequences, bidi
controls, markup, look-alike letters, spaces) never reaches the user's screen or the
provider: it is left out with one sentence, and the server's other tools still serve."""

from __future__ import annotations

import string
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.base import BaseCheckpointSaver

from agents.mcp_servers import McpServerConfig
from agents.mcp_servers.tools import tool_name_allowed
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.user_message import NewMessage
from storage.sqlite_store import SqliteConversationStore
from tests.support.fake_openai import FakeOpenAI
from tests.support.openai_script import Reply

SERVER = Path(__file__).with_name("odd_names_server.py")
PLAIN = string.ascii_letters + string.digits + "_-"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=PLAIN, min_size=1, max_size=64))
def test_plain_names_are_allowed(name: str) -> None:
    assert tool_name_allowed(name)


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=PLAIN, max_size=30),
    st.characters(blacklist_characters=PLAIN),
    st.text(alphabet=PLAIN, max_size=30),
)
def test_a_name_with_any_other_character_is_refused(head: str, odd: str, tail: str) -> None:
    assert not tool_name_allowed(head + odd + tail)


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet=PLAIN, min_size=65, max_size=200))
def test_a_name_longer_than_64_is_refused(name: str) -> None:
    assert not tool_name_allowed(name)


def test_the_empty_name_and_a_trailing_newline_are_refused() -> None:
    assert not tool_name_allowed("")
    assert not tool_name_allowed("plain\n")


async def test_tools_with_odd_names_are_left_out_and_the_rest_serve(
    store: SqliteConversationStore,
    checkpointer: BaseCheckpointSaver[Any],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    log = tmp_path / "odd.log"
    config = McpServerConfig(name="odd", command=sys.executable, args=(str(SERVER),),
                             env={"ODD_LOG": str(log)}, approve="always")  # fmt: skip
    fake_openai.script(Reply("Done."))
    runtime = AgentRuntime(store, checkpointer, mcp_servers=[config])
    try:
        message = NewMessage(profile="ide-helper", text="use the tools")
        events = [e async for e in runtime.send(message, model=openai_model())]
    finally:
        await runtime.aclose()
    body = fake_openai.chat_requests[0].body
    assert body is not None
    names = [t["function"]["name"] for t in body["tools"]]
    assert "plain" in names
    assert all(tool_name_allowed(name) for name in names)
    said = repr(events)
    assert "left out" in said
    for odd in ("\x1b", "\u202e", "[bold]"):
        assert odd not in said
    assert not log.exists()
