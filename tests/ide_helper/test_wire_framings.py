"""The ide-helper's turns over a real ``ChatOpenAI`` client against the local server framing
replies as other providers do, and refusing requests as they do: Gemini's tool calls without
``index`` or ids ending in ``stop``, reasoning in ``reasoning`` / ``reasoning_details`` that a
server wants back in that field, Mistral's 9-character ids and tool names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from agents.runtime.events import RunError, RunFinished, ToolFinished
from tests.ide_helper.test_provider_wire import start, turn
from tests.support.fake_openai import Reply, ToolCall


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "c", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}


def gemini_calls(*calls: tuple[str, str], with_ids: bool = False) -> Reply:
    """Every call whole in one chunk, without ``index``, ids empty, ``finish_reason: stop``."""
    raw = [
        {"id": f"g{n}" if with_ids else "", "type": "function",
         "function": {"name": name, "arguments": args}}
        for n, (name, args) in enumerate(calls)
    ]  # fmt: skip
    return Reply(events=[_chunk({"role": "assistant", "tool_calls": raw}, "stop")])


def sent_tool_rounds(body: dict[str, Any]) -> tuple[list[str], list[str], list[str | None]]:
    """(the assistant's call ids, the tool messages' ids, their names) of a request."""
    calls = [c["id"] for m in body["messages"] if m["role"] == "assistant"
             for c in m.get("tool_calls") or ()]  # fmt: skip
    tools = [m for m in body["messages"] if m["role"] == "tool"]
    return calls, [m["tool_call_id"] for m in tools], [m.get("name") for m in tools]


@pytest.mark.parametrize("with_ids", [False, True])
async def test_index_less_calls_ending_in_stop_all_run(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any, with_ids: bool
) -> None:
    fake_openai.script(
        gemini_calls(("read_file", '{"path": "src/app.py"}'), ("list_files", "{}"), with_ids=with_ids),
        Reply("greet is in src/app.py."),
    )  # fmt: skip
    events = await turn(store, tmp_path, start(store, project, "where?"), openai_model())

    assert isinstance(events[-1], RunFinished), events[-1]
    ran = [e for e in events if isinstance(e, ToolFinished)]
    # the two calls run at once: shown as each finishes, sent back (stored) in call order
    assert sorted(e.name for e in ran) == ["list_files", "read_file"]
    assert all(e.error is None for e in ran)
    calls, answered, names = sent_tool_rounds(fake_openai.chat_bodies[-1])
    assert len(set(calls)) == 2
    assert all(calls)
    assert answered == calls
    assert names == ["read_file", "list_files"]
    stored = store.get_message(events[-1].leaf_id)
    assert stored.content == "greet is in src/app.py."


@pytest.mark.parametrize("field", ["reasoning", "reasoning_details", "reasoning_content"])
async def test_reasoning_goes_back_in_the_field_it_came_in_after_the_400_naming_it(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any, field: str
) -> None:
    fake_openai.needs_reasoning_back = True
    fake_openai.reasoning_field = field
    thought: dict[str, Any]
    if field == "reasoning_details":
        thought = {"reasoning_details": [{"type": "reasoning.text", "text": "PLAN", "index": 0}]}
    else:
        thought = {field: "PLAN"}
    call = {"index": 0, "id": "k1", "type": "function",
            "function": {"name": "list_files", "arguments": "{}"}}  # fmt: skip
    fake_openai.script(
        Reply(events=[_chunk(thought), _chunk({"tool_calls": [call]}, "tool_calls")]),
        Reply("Listed."),
        Reply(tool_calls=[ToolCall("list_files", {}, id="k2")]),
        Reply("Again."),
    )
    model = openai_model()
    first = await turn(store, tmp_path, start(store, project, "files?"), model)

    assert isinstance(first[-1], RunFinished), first[-1]
    bodies = fake_openai.chat_bodies
    assert len(bodies) == 3  # the tool round, the refused follow-up, its one retry
    sent = next(m for m in bodies[2]["messages"] if m.get("tool_calls"))
    if field == "reasoning_details":
        assert sent[field] == [{"type": "reasoning.text", "text": "PLAN"}]
    else:
        assert sent[field] == "PLAN"
    path = store.path_to_root(first[-1].leaf_id)
    assert any(r.meta.get("reasoning_field") == field for r in path)

    user = start(store, project, "again?", parent=first[-1].leaf_id)
    second = await turn(store, tmp_path, user, model)
    assert isinstance(second[-1], RunFinished), second[-1]
    assert len(fake_openai.chat_bodies) == 5  # remembered: no 400 this time


async def test_ids_from_another_provider_are_mapped_to_ones_mistral_accepts(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.tool_call_id_pattern = "[A-Za-z0-9]{9}"
    fake_openai.needs_tool_names = True
    fake_openai.script(
        Reply(tool_calls=[ToolCall("read_file", {"path": "src/app.py"}, id="call_from_openai")]),
        Reply("Read."),
    )
    events = await turn(store, tmp_path, start(store, project, "read it"), openai_model())

    assert isinstance(events[-1], RunFinished), events[-1]
    bodies = fake_openai.chat_bodies
    assert len(bodies) == 3  # the call, the refused follow-up, its one retry with mapped ids
    calls, answered, names = sent_tool_rounds(bodies[-1])
    assert all(re.fullmatch("[A-Za-z0-9]{9}", i) for i in calls)
    assert answered == calls
    assert names == ["read_file"]
    path = store.path_to_root(events[-1].leaf_id)
    stored = [c["id"] for r in path for c in r.meta.get("tool_calls") or ()]
    assert stored == ["call_from_openai"]  # the store keeps its own ids


async def test_calls_without_ids_never_end_in_a_bad_response_error(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    """A call with no id used to reach the tool node as ``tool_call_id=None``: a pydantic error
    translated as "check that base_url points to an OpenAI-compatible API"."""
    raw = {"index": 0, "type": "function", "function": {"name": "list_files", "arguments": "{}"}}
    fake_openai.script(
        Reply(events=[_chunk({"tool_calls": [raw]}, "tool_calls")]), Reply("Listed.")
    )
    events = await turn(store, tmp_path, start(store, project, "files?"), openai_model())

    assert not [e for e in events if isinstance(e, RunError)]
    assert isinstance(events[-1], RunFinished), events[-1]
    calls, answered, _ = sent_tool_rounds(fake_openai.chat_bodies[-1])
    assert calls == answered
    assert all(calls)


async def test_geminis_thought_signatures_go_back_on_their_calls_after_the_400_asking(
    store: Any, tmp_path: Path, project: Path, fake_openai: Any, openai_model: Any
) -> None:
    fake_openai.needs_call_extras = True
    fake_openai.script(
        Reply.calls_without_index(
            ToolCall("read_file", {"path": "src/app.py"}),
            ToolCall("list_files", {}),
            signatures=True,
        ),
        Reply("Read."),
        Reply("Still read."),
    )
    model = openai_model()
    first = await turn(store, tmp_path, start(store, project, "read"), model)

    assert isinstance(first[-1], RunFinished), first[-1]
    bodies = fake_openai.chat_bodies
    assert len(bodies) == 3  # the calls, the refused follow-up, its one retry
    sent = next(m for m in bodies[2]["messages"] if m.get("tool_calls"))["tool_calls"]
    assert [c["extra_content"]["google"]["thought_signature"] for c in sent] == ["SIG0", "SIG1"]

    user = start(store, project, "again", parent=first[-1].leaf_id)
    second = await turn(store, tmp_path, user, model)
    assert isinstance(second[-1], RunFinished), second[-1]
    assert len(fake_openai.chat_bodies) == 4  # remembered, and kept in the store: no 400
