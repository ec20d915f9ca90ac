"""A model that refuses tools still serves the ide-helper: the tools go in the prompt, a reply
that is exactly one JSON call runs as a real tool call, anything else is the answer; the
endpoint is remembered, so the next turn asks without tools at once. Over HTTP, real store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.runtime.events import NodeStatus, RunFinished, ToolStarted
from tests.ide_helper.test_provider_wire import start, turn
from tests.support.fake_openai import Reply

OLLAMA_REFUSAL = "registry.ollama.ai/library/gemma:2b does not support tools"
VLLM_REFUSAL = (
    '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
)


def call(name: str, arguments: Any) -> str:
    return json.dumps({"tool": name, "arguments": arguments})


@pytest.mark.parametrize("refusal", [OLLAMA_REFUSAL, VLLM_REFUSAL])
async def test_a_file_is_read_through_emulated_tools_and_the_next_turn_goes_straight_there(
    refusal: str, store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(
        Reply.http_error(400, refusal),
        Reply(f"```json\n{call('read_file', {'path': 'src/app.py'})}\n```"),
        Reply("greet is defined in src/app.py."),
        Reply("Nothing else to read."),
    )
    model = openai_model()
    first = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, first, model)

    assert isinstance(events[-1], RunFinished), events[-1]
    assert [e.name for e in events if isinstance(e, ToolStarted)] == ["read_file"]
    assert any(isinstance(e, NodeStatus) and "emulated" in e.text for e in events)
    bodies = fake_openai.chat_bodies
    assert "tools" in bodies[0]
    assert all("tools" not in body for body in bodies[1:])
    roles = [m["role"] for m in bodies[2]["messages"]]
    assert "tool" not in roles  # the result went back as text
    assert "def greet" in bodies[2]["messages"][-1]["content"]
    path = store.path_to_root(events[-1].leaf_id)
    assert [r.role for r in path] == ["user", "assistant", "tool", "assistant"]
    assert path[1].tool_calls[0]["name"] == "read_file"
    assert path[1].tool_calls[0]["args"] == {"path": "src/app.py"}
    assert "def greet" in path[2].content
    assert path[-1].content == "greet is defined in src/app.py."

    second = start(store, project, "anything else?", parent=path[-1].id)
    events = await turn(store, tmp_path, second, model)

    assert isinstance(events[-1], RunFinished), events[-1]
    later = fake_openai.chat_bodies[3:]
    assert len(later) == 1  # remembered: no refused request first
    assert "tools" not in later[0]
    assert "tool" not in [m["role"] for m in later[0]["messages"]]


@pytest.mark.parametrize(
    "text",
    [
        call("read_file", {"path": 5}),  # arguments the schema rejects
        call("delete_everything", {}),  # no such tool
        f"Let me look. {call('read_file', {'path': 'src/app.py'})}",  # not the whole reply
        '{"tool": "read_file", "arguments": {"path": "src/app.py"}',  # cut JSON
    ],
)
async def test_a_malformed_emulated_call_is_answer_text_and_runs_nothing(
    text: str, store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.script(Reply.http_error(400, OLLAMA_REFUSAL), Reply(text))
    user = start(store, project, "where is greet?")

    events = await turn(store, tmp_path, user, openai_model())

    assert isinstance(events[-1], RunFinished), events[-1]
    assert not [e for e in events if isinstance(e, ToolStarted)]
    reply = store.get_message(events[-1].leaf_id)
    assert reply.content == text
    assert not reply.tool_calls
