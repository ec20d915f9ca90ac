"""The offline model behaves like a provider's streaming chat model."""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessageChunk, HumanMessage, SystemMessage
from langgraph.graph import START, MessagesState, StateGraph

from agents.offline import OfflineChatModel
from agents.offline.text import split_tokens
from tests.offline.tools import code_tools, ide_helper_model


def test_split_tokens_round_trips_any_text() -> None:
    text = "Hello,  world!\n\n```python\ndef f(x):\n    return x*2\n```\n- a `b` c  \n"
    tokens = split_tokens(text)
    assert "".join(tokens) == text
    assert len(tokens) > 15


def test_stream_yields_many_chunks_that_join_to_the_invoked_text(model: OfflineChatModel) -> None:
    chunks = list(model.stream("How do I set an API key?"))
    text = "".join(c.content for c in chunks)
    assert len(chunks) > 50
    assert text == model.invoke("How do I set an API key?").content
    assert "WEAVER_API_KEY" in text


async def test_astream_matches_stream_and_puts_usage_on_the_last_chunk(
    model: OfflineChatModel,
) -> None:
    chunks = [c async for c in model.astream("hello there")]
    assert "".join(c.content for c in chunks) == "".join(
        c.content for c in model.stream("hello there")
    )
    usage_chunks = [c for c in chunks if c.usage_metadata]
    assert len(usage_chunks) == 1 and usage_chunks[0] is chunks[-1]
    usage = chunks[-1].usage_metadata
    assert usage["input_tokens"] > 0 and usage["output_tokens"] > 10
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert chunks[-1].response_metadata["finish_reason"] == "stop"


def test_usage_grows_with_the_prompt(model: OfflineChatModel) -> None:
    short = model.invoke("hi").usage_metadata["input_tokens"]
    long = model.invoke("hi " + "and more words " * 50).usage_metadata["input_tokens"]
    assert long > short


def test_tool_call_chunks_assemble_into_valid_tool_calls(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project))
    chunks = list(bound.stream([HumanMessage("Read src/demo/app.py and README.md please")]))
    assert sum(1 for c in chunks if c.tool_call_chunks) >= 2
    merged = chunks[0]
    for chunk in chunks[1:]:
        merged = merged + chunk
    assert isinstance(merged, AIMessageChunk)
    assert [c["name"] for c in merged.tool_calls] == ["read_file", "read_file"]
    assert [c["id"] for c in merged.tool_calls] == ["call_1", "call_2"]
    assert [c["args"] for c in merged.tool_calls] == [
        {"path": "src/demo/app.py"},
        {"path": "README.md"},
    ]
    for piece in merged.tool_call_chunks:
        assert json.loads(piece["args"])
    assert merged.response_metadata["finish_reason"] == "tool_calls"
    assert merged.usage_metadata["output_tokens"] > 0


def test_invoke_returns_tool_calls_on_an_ai_message(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project))
    message = bound.invoke("where is load_config defined?")
    assert message.tool_calls == [
        {
            "name": "search_code",
            "args": {"query": "load_config"},
            "id": "call_1",
            "type": "tool_call",
        }
    ]


def test_same_input_gives_the_same_output_and_different_inputs_differ(
    model: OfflineChatModel,
) -> None:
    questions = [
        "Why is the sky blue?",
        "What is a monad?",
        "hello",
        "How do I configure a provider?",
    ]
    first = [model.invoke(q).content for q in questions]
    again = [ide_helper_model().invoke(q).content for q in questions]
    assert first == again
    assert len(set(first)) == len(questions)


def test_identity_is_weaver_offline(model: OfflineChatModel) -> None:
    assert model._llm_type == "weaver-offline"
    assert model.model_name == "weaver-offline"
    assert model._identifying_params["model_name"] == "weaver-offline"
    assert model.invoke("hi").response_metadata["model_name"] == "weaver-offline"


def test_token_delay_is_a_constructor_field() -> None:
    slow = OfflineChatModel(token_delay_ms=1)
    assert slow.token_delay_ms == 1
    assert "".join(c.content for c in slow.stream("hi")) == ide_helper_model().invoke("hi").content


async def test_tokens_arrive_through_langgraph_messages_stream(model: OfflineChatModel) -> None:
    async def agent(state: MessagesState) -> dict:
        return {"messages": [await model.ainvoke([SystemMessage("Be brief."), *state["messages"]])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    graph = builder.compile()
    pieces = []
    async for chunk, metadata in graph.astream(
        {"messages": [HumanMessage("Which model is this?")]}, stream_mode="messages"
    ):
        assert metadata["langgraph_node"] == "agent"
        pieces.append(chunk.content)
    assert len(pieces) > 30
    assert (
        "".join(pieces)
        == model.invoke([SystemMessage("Be brief."), HumanMessage("Which model is this?")]).content
    )


def test_a_forced_tool_choice_calls_exactly_that_tool(project: Path) -> None:
    bound = ide_helper_model().bind_tools(code_tools(project), tool_choice="list_files")
    calls = bound.invoke("What does src/demo/app.py do?").tool_calls
    assert [c["name"] for c in calls] == ["list_files"]


def test_structured_output_accepts_a_json_schema_dict(model: OfflineChatModel) -> None:
    schema = {
        "title": "Ticket",
        "description": "A support ticket.",
        "type": "object",
        "properties": {
            "priority": {"type": "string", "enum": ["low", "high"]},
            "summary": {"type": "string"},
            "count": {"type": "integer"},
        },
        "required": ["priority", "summary", "count"],
    }
    ticket = model.with_structured_output(schema).invoke(
        "The login page is down for 40 users, high priority"
    )
    assert ticket == {
        "priority": "high",
        "summary": "The login page is down for 40 users, high priority",
        "count": 40,
    }


async def test_a_whole_tool_loop_is_deterministic(project: Path) -> None:
    from tests.offline.conftest import build_loop, run_turn

    graph = build_loop(ide_helper_model(), code_tools(project))
    first = await run_turn(graph, "rename Greeter to Welcomer in src/demo/app.py")
    second = await run_turn(
        build_loop(ide_helper_model(), code_tools(project)),
        "rename Greeter to Welcomer in src/demo/app.py",
    )
    assert [(type(m).__name__, m.content) for m in first] == [
        (type(m).__name__, m.content) for m in second
    ]
    assert "+class Welcomer:" in first[-1].content


def test_markdown_helpers_survive_backticks_in_content() -> None:
    from agents.offline.text import code_span, fenced

    assert code_span("a `b` c") == "``a `b` c``"
    block = fenced("intro\n```sh\nrun\n```", "markdown")
    assert block.startswith("````markdown\n") and block.endswith("\n````")


async def test_astream_events_v2_carries_the_tokens(model: OfflineChatModel) -> None:
    tokens = [
        event["data"]["chunk"].content
        async for event in model.astream_events("Which model is this?", version="v2")
        if event["event"] == "on_chat_model_stream"
    ]
    assert len(tokens) > 30
    assert "".join(tokens) == model.invoke("Which model is this?").content
