"""A ``ToolNode`` whose tool errors become messages the model reads, with each call reported.

Every call is timed and announced on the custom stream (payloads under :data:`TOOL_EVENT_KEY`),
so the runtime can show "started" the moment a tool begins and "finished" with its output or
error and duration, per tool, even when several run in parallel.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.config import get_stream_writer
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.types import Command

logger = logging.getLogger(__name__)

TOOL_EVENT_KEY = "tool_event"


def message_text(content: Any) -> str:
    """Flatten message content (a string or a list of content blocks) to text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "".join(parts)
    return str(content)


def record_meta_of(message: ToolMessage) -> dict[str, Any] | None:
    """Extra meta a tool asks to keep on its tool record: ``artifact["record_meta"]`` (the
    mediator's delivery tools store ``visibility`` and ``recipient`` this way)."""
    artifact = message.artifact
    if isinstance(artifact, dict) and isinstance(artifact.get("record_meta"), dict):
        return dict(artifact["record_meta"])
    return None


def _writer() -> Callable[[Any], None]:
    try:
        return get_stream_writer()
    except RuntimeError:
        return lambda _payload: None


async def report_tool_call(
    request: ToolCallRequest,
    execute: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
) -> ToolMessage | Command[Any]:
    """``awrap_tool_call`` hook: announce, run and time one tool call."""
    call = request.tool_call
    write = _writer()
    write(
        {
            TOOL_EVENT_KEY: "started",
            "call_id": call["id"],
            "name": call["name"],
            "args": call["args"],
        }
    )
    started = time.perf_counter()
    result = await execute(request)
    duration_ms = (time.perf_counter() - started) * 1000
    if isinstance(result, ToolMessage):
        output = message_text(result.content)
        error = output if result.status == "error" else None
        log_extra = {"tool": call["name"], "duration_ms": round(duration_ms, 2), "output": output}
        if error:
            logger.warning("tool failed", extra={**log_extra, "error": error})
        else:
            logger.info("tool finished", extra=log_extra)
        write(
            {
                TOOL_EVENT_KEY: "finished",
                "call_id": call["id"],
                "name": call["name"],
                "output": output,
                "error": error,
                "duration_ms": duration_ms,
                "record_meta": record_meta_of(result),
            }
        )
    return result


def make_tool_node(tools: Sequence[BaseTool], *, name: str = "tools") -> ToolNode:
    """The shared ``ToolNode``: errors (bad arguments, exceptions) become error ToolMessages."""
    return ToolNode(
        list(tools), name=name, handle_tool_errors=True, awrap_tool_call=report_tool_call
    )
