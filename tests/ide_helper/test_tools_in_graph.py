"""The ide-helper's tools inside its graph, on the real runtime: refusals reach the model as
error results it can recover from; two patches in one round are reviewed one after another;
the tool-round limit ends the turn with an answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.patch_review.review import find_pending_review, resume_value
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunFinished, ToolFinished
from tests.support.fake_openai import Reply, ToolCall


def start(store: Any, project: Path, text: str) -> Any:
    conversation = store.create_conversation("ide-helper", "t", meta={"project_root": str(project)})
    return store.add_message(conversation.id, "user", text, None)


async def test_a_refused_path_is_an_error_result_the_model_reads(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("read_file", {"path": "../../etc/passwd"}, id="c1")]),
        Reply(tool_calls=[ToolCall("search_code", {"query": "def greet"}, id="c2")]),
        Reply("greet is defined at src/app.py:4."),
    )
    user = start(store, project, "where is greet?")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
            )
        ]
    refused, found = [e for e in events if isinstance(e, ToolFinished)]
    assert refused.error == (
        "Path '../../etc/passwd' is outside the project root; use a path relative to the "
        "project, e.g. 'src/app.py'."
    )
    assert found.error is None
    assert found.output.startswith("src/app.py:4: def greet(name: str) -> str:")
    second_request = fake_openai.chat_bodies[1]["messages"]
    assert second_request[-1]["role"] == "tool"
    assert second_request[-1]["tool_call_id"] == "c1"
    assert second_request[-1]["content"] == refused.error
    assert {t["function"]["name"] for t in fake_openai.chat_bodies[0]["tools"]} == {
        "read_file",
        "list_files",
        "search_code",
        "propose_edit",
    }
    assert isinstance(events[-1], RunFinished)
    assert store.get_message(events[-1].leaf_id).content == "greet is defined at src/app.py:4."


async def test_two_patches_in_one_round_are_reviewed_one_after_the_other(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall(
                    "propose_edit",
                    {
                        "path": "src/app.py",
                        "start_line": 1,
                        "end_line": 1,
                        "new_content": '"""Greetings."""',
                    },
                    id="e1",
                ),
                ToolCall(
                    "propose_edit",
                    {
                        "path": "README.md",
                        "start_line": 1,
                        "end_line": 1,
                        "new_content": "# Greetings",
                    },
                    id="e2",
                ),
            ]
        ),
        Reply("Applied the first, skipped the second."),
    )
    user = start(store, project, "retitle")
    model = openai_model()
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver)
        [
            e
            async for e in runtime.run_turn(
                conversation_id=user.conversation_id, user_message_id=user.id, model=model
            )
        ]
        first = find_pending_review(store, user.conversation_id)
        assert first is not None
        assert first.patch.path == "src/app.py"
        [
            e
            async for e in runtime.resume_turn(
                conversation_id=user.conversation_id,
                record_id=first.record_id,
                value=resume_value("accept"),
                model=model,
            )
        ]
        second = find_pending_review(store, user.conversation_id)
        assert second is not None
        assert second.patch.path == "README.md"
        events = [
            e
            async for e in runtime.resume_turn(
                conversation_id=user.conversation_id,
                record_id=second.record_id,
                value=resume_value("reject", "keep the old title"),
                model=model,
            )
        ]
    assert (project / "src/app.py").read_text().startswith('"""Greetings."""\n')
    assert (project / "README.md").read_text().startswith("# Demo\n")
    results = {
        m["tool_call_id"]: m["content"]
        for m in fake_openai.chat_bodies[-1]["messages"]
        if m["role"] == "tool"
    }
    assert results["e1"].startswith("Applied patch")
    assert results["e2"].startswith("The user rejected patch")
    assert "The user's comment: keep the old title" in results["e2"]
    assert isinstance(events[-1], RunFinished)
    assert find_pending_review(store, user.conversation_id) is None


async def test_tool_round_limit_forces_an_answer(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("list_files", {}, id="l1")]),
        Reply(tool_calls=[ToolCall("list_files", {"directory": "src"}, id="l2")]),
        Reply("Here is what I found."),
    )
    user = start(store, project, "list everything")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver, max_tool_rounds=2)
        events = [
            e
            async for e in runtime.run_turn(
                conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
            )
        ]
    assert len([e for e in events if isinstance(e, ToolFinished)]) == 2
    last_request = fake_openai.chat_bodies[-1]
    assert "tools" not in last_request or not last_request["tools"]
    assert isinstance(events[-1], RunFinished)


async def test_a_missing_project_root_is_explained(
    store: Any, tmp_path: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(Reply(tool_calls=[ToolCall("list_files", {}, id="m1")]), Reply("Sorry."))
    user = start(store, tmp_path / "gone", "list files")
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        events = [
            e
            async for e in AgentRuntime(store, saver).run_turn(
                conversation_id=user.conversation_id, user_message_id=user.id, model=openai_model()
            )
        ]
    (failed,) = [e for e in events if isinstance(e, ToolFinished)]
    assert failed.error is not None
    assert "is not there any more" in failed.error
