"""A ``ToolNode`` whose tool errors become messages the model reads, with each call reported.

Every call is timed and announced on the custom stream (payloads under :data:`TOOL_EVENT_KEY`),
so the runtime can show "started" the moment a tool begins and "finished" with its output or
error and duration, per tool, even when several run in parallel. Calls the model sent with
broken arguments are answered with an error too (:mod:`agents.graph.broken_calls`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.config import get_stream_writer
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolCallRequest
from langgraph.runtime import Runtime
from langgraph.types import Command
from pydantic import BaseModel

from agents.graph.approval import settle_approvals
from agents.graph.broken_calls import broken_call_answers

logger = logging.getLogger(__name__)

TOOL_EVENT_KEY = "tool_event"
TOOL_SECONDS = 30.0
"""Default time limit of one tool call (``TurnContext.tool_seconds``)."""
TOOL_RESULT_CHARS = 64_000
"""Default size limit of a tool result the model reads (``TurnContext.tool_result_chars``)."""


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


def _within(result: ToolMessage, limit: int) -> ToolMessage:
    """``result`` cut to ``limit`` characters, saying so to the model (and the tree)."""
    text = message_text(result.content)
    if len(text) <= limit:
        return result
    note = (
        f"\n\n[cut: the result had {len(text):,} characters, the limit is {limit:,}; ask for "
        "less: a line range, a narrower search or folder]"
    )
    return result.model_copy(update={"content": text[:limit] + note})


_refused: ContextVar[Mapping[str, str] | None] = ContextVar("weaver_refused_calls", default=None)
"""Call id -> the refusal the model reads, for this round's calls that must not run."""


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
    context = getattr(request.runtime, "context", None)
    seconds = float(getattr(context, "tool_seconds", TOOL_SECONDS))
    limit = int(getattr(context, "tool_result_chars", TOOL_RESULT_CHARS))
    if (
        getattr(request, "tool", True) is None
    ):  # not the profile's own: one of the turn's extra tools, if any
        extra = {t.name: t for t in getattr(context, "extra_tools", ())}
        if call["name"] in extra:
            request = request.override(tool=extra[call["name"]])
    started = time.perf_counter()
    refusal = (_refused.get() or {}).get(str(call["id"]))
    try:
        if refusal is not None:
            result: ToolMessage | Command[Any] = ToolMessage(
                content=refusal, tool_call_id=call["id"], name=call["name"], status="error"
            )
        else:
            result = await asyncio.wait_for(execute(request), seconds)
    except TimeoutError:
        result = ToolMessage(
            content=(
                f"The tool {call['name']} did not finish within {seconds:.0f} s and was "
                "stopped; ask for less (a narrower folder, pattern or range)."
            ),
            tool_call_id=call["id"],
            name=call["name"],
            status="error",
        )
    duration_ms = (time.perf_counter() - started) * 1000
    if isinstance(result, ToolMessage):
        result = _within(result, limit)
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


class AnsweringToolNode(ToolNode):
    """The shared ``ToolNode``, with two steps before a round runs.

    First it asks the user about the calls that need approval
    (:func:`agents.graph.approval.settle_approvals`): every question of a round is asked before
    any of its tools runs, so a pause never leaves a tool run twice, and the refused calls are
    answered with their refusal, never run. Then it answers the last AI message's broken tool
    calls (arguments that are not JSON) with an error the model reads, beside the results of
    the calls that parsed."""

    async def _afunc(
        self,
        input: list[AnyMessage] | dict[str, Any] | BaseModel,
        config: RunnableConfig,
        runtime: Runtime,
    ) -> Any:
        context = runtime.context
        calls, _ = self._parse_input(input)
        tools = [*self.tools_by_name.values(), *getattr(context, "extra_tools", ())]
        refused: dict[str, str] = {}
        if context is not None:
            refused = settle_approvals(calls, tools, context)
        token = _refused.set(refused)
        try:
            return await self._answer_round(input, config, runtime)
        finally:
            _refused.reset(token)

    async def _answer_round(self, input: Any, config: RunnableConfig, runtime: Runtime) -> Any:
        messages = input.get(self._messages_key) if isinstance(input, dict) else None
        last = next((m for m in reversed(messages or []) if isinstance(m, AIMessage)), None)
        if last is None or not last.invalid_tool_calls:
            return await super()._afunc(input, config, runtime)
        answers = broken_call_answers(last, _writer(), TOOL_EVENT_KEY)
        if not last.tool_calls:
            return {self._messages_key: answers}
        result = await super()._afunc(input, config, runtime)
        if isinstance(result, dict):
            return {**result, self._messages_key: [*answers, *result[self._messages_key]]}
        return [*result, {self._messages_key: answers}]


def make_tool_node(tools: Sequence[BaseTool], *, name: str = "tools") -> ToolNode:
    """The shared ``ToolNode``: errors (bad or broken arguments, exceptions) become error
    ToolMessages; it also runs the turn's extra tools (``TurnContext.extra_tools``) and asks the
    user before a call that needs approval."""
    return AnsweringToolNode(
        list(tools), name=name, handle_tool_errors=True, awrap_tool_call=report_tool_call
    )
