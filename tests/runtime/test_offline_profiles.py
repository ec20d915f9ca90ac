"""The embedded offline model runs every registered profile end to end on the shared runtime."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.profile_registry import PROFILE_NAMES, get_profile
from agents.providers import ProviderConfig, make_chat_model
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import NodeStatus, RunError, RunFinished, TokenDelta, ToolFinished
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import of_type, run
from tests.support.shared_notes import notes_settings_for

QUESTIONS = {
    "mediator": ("Alex", "We keep arguing about money. I want to save more each month."),
    "ide-helper": (None, "What does the file notes.md say?"),
    "paper-pilot": (None, "How does ReWOO reduce token use compared to ReAct?"),
    "atom-developer": (
        None,
        "Write an atom that extracts the error code from these lines:\n"
        "```\n2024-01-01 ERROR code=500 upstream failed\n2024-01-01 INFO code=200 ok\n```",
    ),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "notes.md").write_text("# Notes\nThe build uses ruff and pytest.\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("name", PROFILE_NAMES)
async def test_offline_model_runs_the_profile(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    project: Path,
    name: str,
    request: pytest.FixtureRequest,
) -> None:
    get_profile(name)  # every registered profile loads
    if name == "paper-pilot":  # the shipped notes, from the server the worker's tests share
        notes_url = request.getfixturevalue("notes_url")
        runtime.profile_settings = notes_settings_for(notes_url, project)
    sender, text = QUESTIONS[name]
    meta: dict[str, object] = {"project_root": str(project)}
    if name == "mediator":
        meta["participants"] = ["Alex", "Sam"]
    conversation = store.create_conversation(name, "offline", meta=meta)
    user = store.add_message(
        conversation.id, "user", text, None, meta={"sender": sender} if sender else None
    )
    model = make_chat_model(ProviderConfig(provider="offline"))

    events = await run(runtime, user, model, project_root=project, sender=sender)

    assert not of_type(events, RunError), of_type(events, RunError)
    finished = events[-1]
    assert isinstance(finished, RunFinished)
    assert finished.status == "complete"
    assert of_type(events, TokenDelta), "the offline model streams its answer"
    tools = of_type(events, ToolFinished)
    # a profile's work shows as tool calls, or as the stage lines of its own graph
    assert tools or of_type(events, NodeStatus), "the offline model does the profile's work"
    assert all(t.error is None for t in tools), [t.error for t in tools]
    path = store.path_to_root(finished.leaf_id)
    answer = path[-1]
    assert answer.role == "assistant"
    assert answer.status is MessageStatus.COMPLETE
    assert answer.content.strip()
    assert answer.meta["provider"] == "offline"
    if tools:
        assert any(r.role == "tool" for r in path)
