"""The ide-helper on a real ``ChatOpenAI`` client over HTTP, against the local server playing a
provider that misbehaves: a thinking model that wants its reasoning back with its tool calls,
tool calls whose arguments are not JSON, a tool name repeated in every streamed chunk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunFinished, ToolFinished, ToolStarted
from tests.support.fake_openai import Reply, ToolCall


def start(store: Any, project: Path, text: str, parent: str | None = None) -> Any:
    if parent is not None:
        return store.add_message(store.get_message(parent).conversation_id, "user", text, parent)
    conversation = store.create_conversation("ide-helper", "t", meta={"project_root": str(project)})
    return store.add_message(conversation.id, "user", text, None)


async def turn(store: Any, tmp_path: Path, user: Any, model: Any) -> list[Any]:
    async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "ck.db")) as saver:
        runtime = AgentRuntime(store, saver, max_tool_rounds=5)
        return [
            e
            async for e in runtime.run_turn(
                conversation_id=user.conversation_id, user_message_id=user.id, model=model
            )
        ]


def assistant_calls(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "assistant" and m.get("tool_calls")]


async def test_reasoning_is_sent_back_after_the_servers_400_and_then_at_once(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.needs_reasoning_back = True
    fake_openai.script(
        Reply(
            reasoning=["PLAN: read app.py"],
            tool_calls=[ToolCall("read_file", {"path": "src/app.py"}, id="r1")],
        ),
        Reply("greet is in src/app.py."),
        Reply(reasoning=["AGAIN"], tool_calls=[ToolCall("list_files", {}, id="r2")]),
        Reply("Listed."),
    )
    model = openai_model()
    first = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, first, model)

    assert isinstance(events[-1], RunFinished), events[-1]
    requests = fake_openai.chat_bodies
    assert len(requests) == 3  # the tool round, the refused follow-up, its one retry
    assert "reasoning_content" not in assistant_calls(requests[1])[0]
    assert assistant_calls(requests[2])[0]["reasoning_content"] == "PLAN: read app.py"
    reply = store.get_message(events[-1].leaf_id)
    assert reply.content == "greet is in src/app.py."
    path = store.path_to_root(reply.id)
    assert all("PLAN" not in r.content for r in path)

    second = start(store, project, "and the files?", parent=reply.id)
    events = await turn(store, tmp_path, second, model)

    assert isinstance(events[-1], RunFinished), events[-1]
    later = fake_openai.chat_bodies[3:]
    assert len(later) == 2  # remembered: no 400 this time
    sent = assistant_calls(later[-1])
    assert [m["reasoning_content"] for m in sent] == ["PLAN: read app.py", "AGAIN"]


async def test_a_call_with_broken_arguments_is_answered_and_the_models_retry_runs(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("read_file", '{"path": src/app.py}', id="b1")]),
        Reply(tool_calls=[ToolCall("read_file", {"path": "src/app.py"}, id="b2")]),
        Reply("greet is in src/app.py."),
    )
    user = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, user, openai_model())

    assert isinstance(events[-1], RunFinished), events[-1]
    started = [(e.call_id, e.name) for e in events if isinstance(e, ToolStarted)]
    assert started == [("b1", "read_file"), ("b2", "read_file")]
    failed, read = [e for e in events if isinstance(e, ToolFinished)]
    assert failed.call_id == "b1"
    assert failed.error
    assert "not valid JSON" in failed.error
    assert read.error is None
    assert "def greet" in read.output
    retry_request = fake_openai.chat_bodies[1]["messages"]
    assert retry_request[-2]["tool_calls"][0]["id"] == "b1"
    assert (retry_request[-1]["role"], retry_request[-1]["tool_call_id"]) == ("tool", "b1")
    assert store.get_message(events[-1].leaf_id).content == "greet is in src/app.py."

    follow_up = start(store, project, "thanks", parent=events[-1].leaf_id)
    fake_openai.script(Reply("You're welcome."))
    await turn(store, tmp_path, follow_up, openai_model())
    resent = fake_openai.chat_bodies[-1]["messages"]
    broken = [m for m in resent if m.get("tool_calls") and m["tool_calls"][0]["id"] == "b1"]
    assert broken[0]["tool_calls"][0]["function"]["arguments"] == '{"path": src/app.py}'
    assert any(m.get("tool_call_id") == "b1" for m in resent)


async def test_a_model_that_keeps_breaking_its_calls_ends_the_turn_with_a_sentence(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        *[Reply(tool_calls=[ToolCall("list_files", "folder=src", id=f"x{n}")]) for n in range(5)]
    )
    user = start(store, project, "list the files")

    events = await turn(store, tmp_path, user, openai_model())

    error = events[-1]
    assert isinstance(error, RunError)
    assert "not valid JSON 3 times in a row" in error.error.user_message
    assert len(fake_openai.chat_requests) == 3
    assert len([e for e in events if isinstance(e, ToolFinished) and e.error]) == 2


async def test_a_tool_name_repeated_in_every_chunk_still_runs_the_tool(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply(
            tool_calls=[
                ToolCall(
                    "read_file",
                    {"path": "src/app.py"},
                    id="n1",
                    argument_chunks=4,
                    name_in_every_chunk=True,
                )
            ]
        ),
        Reply("Read it."),
    )
    user = start(store, project, "show app.py")

    events = await turn(store, tmp_path, user, openai_model())

    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert [(e.name, e.error) for e in finished] == [("read_file", None)]
    assert "def greet" in finished[0].output
    sent = fake_openai.chat_bodies[1]["messages"][-2]["tool_calls"][0]["function"]
    assert sent["name"] == "read_file"
