"""Every tool call has a time limit and every result a size limit; the model is told which."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import cast

from langchain_core.messages import ToolMessage
from langgraph.prebuilt.tool_node import ToolCallRequest

from agents.graph.tool_node import report_tool_call


def _request(seconds: float, chars: int) -> ToolCallRequest:
    """A stand-in carrying only what report_tool_call reads: the call and the turn's limits."""
    context = SimpleNamespace(tool_seconds=seconds, tool_result_chars=chars)
    call = {"id": "c1", "name": "search_code", "args": {"query": "x"}}
    return cast(
        ToolCallRequest,
        SimpleNamespace(tool_call=call, runtime=SimpleNamespace(context=context)),
    )


async def test_a_call_past_its_time_limit_is_stopped_and_the_model_told() -> None:
    async def slow(_request: object) -> ToolMessage:
        await asyncio.sleep(30)
        return ToolMessage(content="late", tool_call_id="c1")

    result = await asyncio.wait_for(report_tool_call(_request(0.2, 1000), slow), 10)
    assert isinstance(result, ToolMessage)
    assert result.status == "error"
    assert "did not finish within 0 s and was stopped" in result.content
    assert result.tool_call_id == "c1"


async def test_a_long_result_is_cut_saying_so() -> None:
    async def verbose(_request: object) -> ToolMessage:
        return ToolMessage(content="y" * 50_000, tool_call_id="c1", name="search_code")

    result = await report_tool_call(_request(5, 1_000), verbose)
    assert isinstance(result, ToolMessage)
    assert isinstance(result.content, str)
    assert result.content.startswith("y" * 1_000)
    assert "[cut: the result had 50,000 characters, the limit is 1,000" in result.content
    short = await report_tool_call(_request(5, 100_000), verbose)
    assert isinstance(short, ToolMessage)
    assert short.content == "y" * 50_000
