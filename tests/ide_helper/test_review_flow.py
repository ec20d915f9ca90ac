"""The patch review through the real runtime: a proposed patch pauses the turn; the pause
survives a restart (a new checkpointer on the same SQLite file); accept applies, reject
discards, a changed file is a conflict; the model reads the outcome as the tool's result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.patch_review.patches import apply_patch
from agents.patch_review.review import find_pending_review, resume_value
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunEvent, RunFinished, ToolFinished
from storage.sqlite_store import SqliteConversationStore
from tests.ide_helper.conftest import APP_PY, write
from tests.support.fake_openai import Reply, ToolCall

EDIT_ARGS = {
    "path": "src/app.py",
    "start_line": 5,
    "end_line": 5,
    "new_content": '    return f"Hi, {name}!"',
}


async def collect(events: Any) -> list[RunEvent]:
    return [event async for event in events]


async def pause_on_a_patch(
    tmp_path: Path, project: Path, fake_openai: Any, model: Any
) -> tuple[str, str]:
    """Run a turn that reads, then proposes an edit; return (conversation id, paused record)."""
    fake_openai.script(
        Reply(content="Reading.", tool_calls=[ToolCall("read_file", {"path": "src/app.py"})]),
        Reply(content="Proposing.", tool_calls=[ToolCall("propose_edit", EDIT_ARGS, id="c_e")]),
    )
    store = SqliteConversationStore(tmp_path / "weaver.db")
    try:
        conversation = store.create_conversation(
            "ide-helper", "review", meta={"project_root": str(project)}
        )
        user = store.add_message(conversation.id, "user", "Say Hi instead of Hello", None)
        async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
            runtime = AgentRuntime(store, saver)
            events = await collect(
                runtime.run_turn(
                    conversation_id=conversation.id, user_message_id=user.id, model=model
                )
            )
        finished = [e for e in events if isinstance(e, ToolFinished)]
        assert [(f.name, f.error) for f in finished] == [
            ("read_file", None),
            ("propose_edit", None),
        ]
        assert "waiting for the user's review" in finished[1].output
        assert isinstance(events[-1], RunFinished)
        assert (project / "src/app.py").read_text() == APP_PY  # nothing written yet
        pending = find_pending_review(store, conversation.id)
        assert pending is not None
        assert pending.patch.path == "src/app.py"
        assert pending.patch.tool_call_id == "c_e"
        assert '+    return f"Hi, {name}!"' in pending.patch.diff
        return conversation.id, pending.record_id
    finally:
        store.close()


async def resume_after_restart(
    tmp_path: Path, conversation_id: str, record_id: str, decision: str, model: Any
) -> tuple[list[RunEvent], SqliteConversationStore]:
    """A fresh store, checkpointer and runtime on the same files, as after an app restart."""
    store = SqliteConversationStore(tmp_path / "weaver.db")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver)
        events = await collect(
            runtime.resume_turn(
                conversation_id=conversation_id,
                record_id=record_id,
                value=resume_value(decision),  # type: ignore[arg-type]
                model=model,
            )
        )
    return events, store


def tool_result_sent_to_model(fake_openai: Any) -> str:
    messages = fake_openai.chat_bodies[-1]["messages"]
    tool_messages = [m for m in messages if m["role"] == "tool" and m["tool_call_id"] == "c_e"]
    assert len(tool_messages) == 1, "exactly one result for the propose_edit call"
    return str(tool_messages[0]["content"])


async def test_accept_after_restart_applies_and_the_model_reads_the_outcome(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    conversation_id, record_id = await pause_on_a_patch(
        tmp_path, project, fake_openai, openai_model()
    )
    fake_openai.script(Reply("Done: greet now says Hi (src/app.py:5)."))

    events, store = await resume_after_restart(
        tmp_path, conversation_id, record_id, "accept", openai_model()
    )
    try:
        assert (project / "src/app.py").read_text() == APP_PY.replace("Hello, {name}", "Hi, {name}")
        settled = [e for e in events if isinstance(e, ToolFinished)]
        assert len(settled) == 1
        assert settled[0].error is None
        assert settled[0].output.startswith("Applied patch p-")
        assert tool_result_sent_to_model(fake_openai).startswith("Applied patch p-")
        finished = events[-1]
        assert isinstance(finished, RunFinished)
        assert finished.status == "complete"
        path = store.path_to_root(finished.leaf_id)
        assert [r.role for r in path] == [
            "user",
            "assistant",
            "tool",
            "assistant",
            "tool",
            "assistant",
        ]
        assert path[4].tool_call_id == "c_e"
        assert path[4].content.startswith("Applied patch p-")
        assert path[4].meta["patch_status"] == "applied"
        assert path[4].meta["patch_path"] == "src/app.py"
        # The outcome is written on the record that waited for it: no second version.
        assert [r.id for r in store.children(path[3].id, conversation_id)] == [path[4].id]
        assert path[4].version == 1
        assert "waiting" not in path[4].content
        assert path[-1].content == "Done: greet now says Hi (src/app.py:5)."
        assert find_pending_review(store, conversation_id) is None
        assert store.get_message(record_id).meta.get("pending_interrupt") is None
    finally:
        store.close()


async def test_reject_leaves_the_file_and_tells_the_model(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    conversation_id, record_id = await pause_on_a_patch(
        tmp_path, project, fake_openai, openai_model()
    )
    fake_openai.script(Reply("Understood, I left it as it was."))
    events, store = await resume_after_restart(
        tmp_path, conversation_id, record_id, "reject", openai_model()
    )
    store.close()
    assert (project / "src/app.py").read_text() == APP_PY
    assert tool_result_sent_to_model(fake_openai).startswith("The user rejected patch p-")
    assert isinstance(events[-1], RunFinished)


async def test_a_file_changed_during_the_review_is_a_conflict(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    conversation_id, record_id = await pause_on_a_patch(
        tmp_path, project, fake_openai, openai_model()
    )
    write(project, "src/app.py", APP_PY + "# edited meanwhile\n")
    fake_openai.script(Reply("The file changed; let me read it again."))
    events, store = await resume_after_restart(
        tmp_path, conversation_id, record_id, "accept", openai_model()
    )
    store.close()
    assert (project / "src/app.py").read_text().endswith("# edited meanwhile\n")
    settled = next(e for e in events if isinstance(e, ToolFinished))
    assert settled.error is not None
    assert "has changed since patch" in settled.error
    assert "has changed since patch" in tool_result_sent_to_model(fake_openai)


async def test_the_app_may_apply_before_resuming_and_the_model_still_reads_applied(
    tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    """The review screen applies the patch itself, then resumes with accept."""
    conversation_id, record_id = await pause_on_a_patch(
        tmp_path, project, fake_openai, openai_model()
    )
    store = SqliteConversationStore(tmp_path / "weaver.db")
    pending = find_pending_review(store, conversation_id)
    store.close()
    assert pending is not None
    assert apply_patch(project, pending.patch).startswith("Applied patch")
    fake_openai.script(Reply("Done."))
    events, store = await resume_after_restart(
        tmp_path, conversation_id, record_id, "accept", openai_model()
    )
    store.close()
    assert (project / "src/app.py").read_text() == APP_PY.replace("Hello, {name}", "Hi, {name}")
    assert tool_result_sent_to_model(fake_openai).startswith(f"Applied patch {pending.patch.id}")
    assert isinstance(events[-1], RunFinished)
