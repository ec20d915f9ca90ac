"""A turn paused by ``interrupt()`` is recorded, survives a new runtime, and resumes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.tools import tool
from langgraph.types import interrupt

import agents.profile_registry as registry
from agents.graph import AgentState, build_react_graph
from agents.profile import Profile
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunFinished, ToolFinished
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import finish_of, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


@tool
def ask_permission(action: str) -> str:
    """Ask the user before doing ``action``; returns their answer."""
    answer = interrupt({"kind": "confirm", "action": action})
    return f"The user answered {answer!r} to {action!r}."


@pytest.fixture
def confirming_profile(monkeypatch: pytest.MonkeyPatch) -> str:
    profile = Profile(
        name="confirm-test",
        title="Confirm",
        description="asks before acting",
        prompt_file=Path(registry.__file__).parent
        / "profiles"
        / "paper_pilot"
        / "prompts"
        / "system.md",
        make_tools=lambda: [ask_permission],
        build_graph=lambda p: build_react_graph(AgentState, p.make_tools()),
    )
    monkeypatch.setitem(registry._loaded, profile.name, profile)
    return profile.name


async def test_paused_turn_resumes_on_a_new_runtime(
    store: SqliteConversationStore,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    confirming_profile: str,
) -> None:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    fake_openai.script(
        Reply(tool_calls=[ToolCall("ask_permission", {"action": "delete logs"}, id="call_p")]),
        Reply("Deleted, as you allowed."),
    )
    user = new_turn(store, confirming_profile, "clean up")
    checkpoints = str(tmp_path / "cp.sqlite")

    async with AsyncSqliteSaver.from_conn_string(checkpoints) as saver:
        paused = await run(
            AgentRuntime(store, saver), user, openai_model(), profile=confirming_profile
        )

    assert isinstance(paused[-1], RunFinished)
    assert paused[-1].status == "complete"
    call_record = store.get_message(paused[-1].leaf_id)
    pending = call_record.meta["pending_interrupt"]
    assert call_record.tool_calls[0]["id"] == "call_p"
    assert pending["values"] == [{"kind": "confirm", "action": "delete logs"}]
    assert not of_type(paused, ToolFinished)

    async with AsyncSqliteSaver.from_conn_string(checkpoints) as saver:  # "after a restart"
        runtime = AgentRuntime(store, saver)
        resumed = [
            e
            async for e in runtime.resume_turn(
                conversation_id=user.conversation_id,
                record_id=call_record.id,
                value="yes",
                model=openai_model(),
            )
        ]

    (finished_tool,) = of_type(resumed, ToolFinished)
    assert finished_tool.output == "The user answered 'yes' to 'delete logs'."
    path = store.path_to_root(finish_of(resumed).leaf_id)
    assert [r.role for r in path] == ["user", "assistant", "tool", "assistant"]
    assert path[-1].content == "Deleted, as you allowed."
    assert store.get_message(call_record.id).meta.get("pending_interrupt") is None


async def test_resuming_a_record_without_a_pause_is_a_run_error(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    user = new_turn(store, "paper-pilot", "hi")
    events = [
        e
        async for e in runtime.resume_turn(
            conversation_id=user.conversation_id, record_id=user.id, value="x", model=openai_model()
        )
    ]
    assert len(events) == 1
    assert isinstance(events[0], RunError)
    assert "no paused turn" in events[0].error.user_message
