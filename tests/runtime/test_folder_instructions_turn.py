"""A real ide-helper turn (``ChatOpenAI`` over HTTP to the fake server, real files) reads the
AGENTS.md of the folder of a file it reads with the file, labelled as the project's content
for that folder, once per turn; and none when the conversation turned project instructions
off."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agents.project_instructions import META_KEY, OFF
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import new_turn, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall


def tool_messages(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "tool"]


def read_twice() -> tuple[Reply, Reply, str]:
    return (
        Reply(tool_calls=[ToolCall("read_file", {"path": "src/a.py"}, id="call_1")]),
        Reply(tool_calls=[ToolCall("read_file", {"path": "src/a.py"}, id="call_2")]),
        "Done.",
    )


def make_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "AGENTS.md").write_text("root rules", encoding="utf-8")
    (root / "src" / "AGENTS.md").write_text("src rules", encoding="utf-8")
    (root / "src" / "a.py").write_text("print('a')\n", encoding="utf-8")
    return root


async def test_a_real_turn_reads_the_folder_instructions_once_with_the_file(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    fake_openai.script(*read_twice())
    user = new_turn(store, "ide-helper", "look at a.py")
    await run(runtime, user, openai_model(), project_root=root)
    last = fake_openai.chat_bodies[-1]
    system = last["messages"][0]["content"]
    assert "root rules" in system
    assert "src rules" not in system
    first, second = tool_messages(last)
    assert "src rules" in first
    assert "for the folder src/ (from src/AGENTS.md" in first
    assert "src rules" not in second  # once per turn
    assert "print('a')" in second


async def test_a_conversation_that_turned_them_off_reads_none(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    fake_openai.script(*read_twice())
    user = new_turn(store, "ide-helper", "look at a.py")
    store.update_conversation_meta(user.conversation_id, **{META_KEY: OFF})
    await run(runtime, user, openai_model(), project_root=root)
    last = fake_openai.chat_bodies[-1]
    assert "root rules" not in last["messages"][0]["content"]
    assert all("src rules" not in text for text in tool_messages(last))
