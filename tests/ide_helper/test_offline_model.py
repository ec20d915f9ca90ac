"""The ide-helper on the embedded offline model, end to end: it searches, reads, proposes a
real patch for review, and the accepted patch lands in the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.patch_review.review import find_pending_review, resume_value
from agents.providers import ProviderConfig, make_chat_model
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from tests.ide_helper.conftest import APP_PY


async def ask(runtime: AgentRuntime, store: Any, conversation_id: str, text: str) -> list[Any]:
    leaf = store.active_leaf(conversation_id)
    user = store.add_message(conversation_id, "user", text, leaf.id if leaf else None)
    return [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation_id,
            user_message_id=user.id,
            model=make_chat_model(ProviderConfig(provider="offline")),
        )
    ]


async def test_search_then_rename_with_review_on_the_offline_model(
    store: Any, tmp_path: Path, git_project: Path
) -> None:
    conversation = store.create_conversation(
        "ide-helper", "offline", meta={"project_root": str(git_project)}
    )
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver)
        events = await ask(runtime, store, conversation.id, "Where is `greet` defined?")
        searched = [e for e in events if isinstance(e, ToolFinished)]
        assert [e.name for e in searched] == ["search_code"]
        assert "src/app.py:4: def greet(name: str) -> str:" in searched[0].output
        answer = store.get_message(events[-1].leaf_id).content
        assert "src/app.py:4" in answer

        events = await ask(
            runtime, store, conversation.id, "Rename `farewell` to `goodbye` in src/app.py"
        )
        names = [e.name for e in events if isinstance(e, ToolFinished)]
        assert names == ["read_file", "propose_edit"]
        pending = find_pending_review(store, conversation.id)
        assert pending is not None
        assert "-def farewell(name: str) -> str:" in pending.patch.diff
        assert "+def goodbye(name: str) -> str:" in pending.patch.diff
        assert (git_project / "src/app.py").read_text() == APP_PY

        events = [
            e
            async for e in runtime.resume_turn(
                conversation_id=conversation.id,
                record_id=pending.record_id,
                value=resume_value("accept"),
                model=make_chat_model(ProviderConfig(provider="offline")),
            )
        ]
    assert isinstance(events[-1], RunFinished)
    assert (git_project / "src/app.py").read_text() == APP_PY.replace("farewell", "goodbye")
    settled = [e for e in events if isinstance(e, ToolFinished)]
    assert settled[0].output.startswith("Applied patch p-")


async def test_a_file_named_by_its_path_is_read_and_a_bare_name_elsewhere_is_found(
    store: Any, tmp_path: Path, project: Path
) -> None:
    (project / "app.log").write_text("12:00:01 ERROR db: connection refused\n", encoding="utf-8")
    (project / "docs").mkdir(exist_ok=True)
    (project / "docs" / "notes.xyz").write_text("remember the milk\n", encoding="utf-8")
    conversation = store.create_conversation(
        "ide-helper", "offline", meta={"project_root": str(project)}
    )
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver)
        events = await ask(runtime, store, conversation.id, "what is in app.log?")
        assert [e.name for e in events if isinstance(e, ToolFinished)] == ["read_file"]
        assert "connection refused" in store.get_message(events[-1].leaf_id).content
        # Not at the root: the failed read is followed by a listing that finds it, then a read.
        events = await ask(runtime, store, conversation.id, "what is in notes.xyz?")
        finished = [e.name for e in events if isinstance(e, ToolFinished)]
        assert finished == ["read_file", "list_files", "read_file"]
        answer = store.get_message(events[-1].leaf_id).content
        assert "remember the milk" in answer
        assert "docs/notes.xyz" in answer
        assert "did not work" not in answer  # the detour made good is not recounted
