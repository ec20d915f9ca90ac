"""The offline model behaves like a provider's streaming chat model, inside and outside a graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from langchain_core.messages import (
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.graph import START, MessagesState, StateGraph

from agents.offline import OfflineChatModel
from agents.offline.text import fenced, split_tokens
from tests.offline.conftest import build_loop, run_turn
from tests.offline.tools import code_tools, ide_helper_model


def test_split_tokens_round_trips_any_text() -> None:
    text = "Hello,  world!\n\n```python\ndef f(x):\n    return x*2\n```\n- a `b` c  \n"
    tokens = split_tokens(text)
    assert "".join(tokens) == text
    assert len(tokens) > 15


def test_stream_yields_many_chunks_that_join_to_the_invoked_text(model: OfflineChatModel) -> None:
    chunks = list(model.stream("How do I set an API key?"))
    text = "".join(c.text for c in chunks)
    assert len(chunks) > 30
    assert text == model.invoke("How do I set an API key?").content
    assert "WEAVER_API_KEY" in text


async def test_astream_matches_stream_and_puts_usage_on_the_last_chunk(
    model: OfflineChatModel,
) -> None:
    chunks = [c async for c in model.astream("hello there")]
    assert "".join(c.text for c in chunks) == "".join(c.text for c in model.stream("hello there"))
    usage_chunks = [c for c in chunks if c.usage_metadata]
    assert len(usage_chunks) == 1
    assert usage_chunks[0] is chunks[-1]
    usage = chunks[-1].usage_metadata
    assert usage is not None
    assert usage["input_tokens"] > 0
    assert usage["output_tokens"] > 10
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert chunks[-1].response_metadata["finish_reason"] == "stop"


def test_usage_grows_with_the_prompt(model: OfflineChatModel) -> None:
    short_usage = model.invoke("hi").usage_metadata
    long_usage = model.invoke("hi " + "and more words " * 50).usage_metadata
    assert short_usage is not None
    assert long_usage is not None
    short = short_usage["input_tokens"]
    long = long_usage["input_tokens"]
    assert long > short


def test_identity_is_weaver_offline(model: OfflineChatModel) -> None:
    assert model._llm_type == "weaver-offline"
    assert model.model_name == "weaver-offline"
    assert model.invoke("hi").response_metadata["model_name"] == "weaver-offline"


def test_token_delay_is_a_constructor_field() -> None:
    slow = OfflineChatModel(token_delay_ms=1)
    assert slow.token_delay_ms == 1
    assert "".join(c.text for c in slow.stream("hi")) == OfflineChatModel().invoke("hi").content


async def test_tool_calls_stream_as_chunks_inside_the_agent_node(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project))
    pieces: list[AIMessageChunk] = []

    async def agent(state: MessagesState) -> dict[str, object]:
        async for chunk in bound.astream(state["messages"]):
            assert isinstance(chunk, AIMessageChunk)
            pieces.append(chunk)
        return {}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    await builder.compile().ainvoke({"messages": [HumanMessage("Read src/demo/app.py and README.md")]})  # fmt: skip
    assert sum(1 for c in pieces if c.tool_call_chunks) >= 2
    merged = pieces[0]
    for chunk in pieces[1:]:
        merged = merged + chunk
    assert [c["args"]["path"] for c in merged.tool_calls] == ["src/demo/app.py", "README.md"]


async def test_tokens_arrive_through_langgraph_messages_stream(model: OfflineChatModel) -> None:
    async def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [await model.ainvoke([SystemMessage("Be brief."), *state["messages"]])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    pieces: list[str] = []
    async for item in builder.compile().astream(
        {"messages": [HumanMessage("Which model is this?")]}, stream_mode="messages"
    ):
        chunk, metadata = cast(tuple[BaseMessage, dict[str, Any]], item)
        assert metadata["langgraph_node"] == "agent"
        pieces.append(chunk.text)
    assert len(pieces) > 20
    assert "".join(pieces) == model.invoke("Which model is this?").content


def test_a_forced_tool_choice_is_always_answered_with_that_tool(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project), tool_choice="list_files")
    calls = bound.invoke("What does src/demo/app.py do?").tool_calls
    assert [c["name"] for c in calls] == ["list_files"]


def test_structured_output_with_no_step_is_valid_and_empty(model: OfflineChatModel) -> None:
    schema = {
        "title": "Ticket",
        "description": "A support ticket.",
        "type": "object",
        "properties": {
            "priority": {"type": "string", "enum": ["low", "high"]},
            "count": {"type": "integer", "minimum": 1},
        },
        "required": ["priority", "count"],
    }
    ticket = model.with_structured_output(schema).invoke("Down for 40 users, high priority")
    assert ticket == {"priority": "low", "count": 1}  # no made-up reading of the words


async def test_a_whole_tool_loop_is_deterministic_and_proposes_the_rename(project: Path) -> None:
    ask = "rename `Greeter` to `Welcomer` in src/demo/app.py"
    first = await run_turn(build_loop(ide_helper_model(), code_tools(project)), ask)
    second = await run_turn(build_loop(ide_helper_model(), code_tools(project)), ask)
    assert [(type(m).__name__, m.content) for m in first] == [
        (type(m).__name__, m.content) for m in second
    ]
    proposed = [m for m in first if isinstance(m, ToolMessage) and m.name == "propose_edit"]
    assert proposed
    assert "+class Welcomer:" in proposed[0].content


def test_fenced_survives_backticks_in_content() -> None:
    block = fenced("intro\n```sh\nrun\n```", "markdown")
    assert block.startswith("````markdown\n")
    assert block.endswith("\n````")
