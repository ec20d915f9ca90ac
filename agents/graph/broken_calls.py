"""Tool calls a model sent broken (arguments that are not JSON): answered, never dropped.

langchain parses a tool call's arguments as it builds the ``AIMessage``; arguments that are not
a JSON object land in ``AIMessage.invalid_tool_calls``, and LangGraph's ``ToolNode`` reads only
``tool_calls``. Left alone, such a reply ends the turn with nothing said and nothing logged,
and the next request carries a call no result answers. Here each broken call gets an error
``ToolMessage`` for its id, as ``ToolNode`` answers an unknown tool name or arguments that fail
validation, so the model can call again; the tool pane shows the failed call. A model that
sends only broken calls :data:`MAX_BROKEN_ROUNDS` rounds in a row ends the turn with one
sentence instead of looping.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from agents.errors import ProviderBadResponseError
from agents.graph.steering import is_steer

logger = logging.getLogger(__name__)

MAX_BROKEN_ROUNDS = 3
"""Rounds in a row of nothing but broken tool calls a turn accepts before it fails."""
_SHOWN_ARGUMENTS = 200


def has_broken_calls(message: Any) -> bool:
    return isinstance(message, AIMessage) and bool(message.invalid_tool_calls)


def broken_call_answers(
    message: AIMessage, write: Callable[[Any], None], event_key: str
) -> list[ToolMessage]:
    """An error ``ToolMessage`` for each broken call of ``message``, each reported on the
    custom stream (``write``) as a tool call that started and failed."""
    answers = []
    for call in message.invalid_tool_calls:
        call_id, name = call.get("id") or "", call.get("name") or "tool"
        raw = call.get("args") or ""
        shown = raw if len(raw) <= _SHOWN_ARGUMENTS else raw[: _SHOWN_ARGUMENTS - 1] + "…"
        reason = f" ({call['error']})" if call.get("error") else ""
        text = (
            f"Error: the arguments of {name} are not valid JSON{reason}: {shown!r}\n"
            f" Please fix your mistakes: call {name} again with its arguments as one JSON object."
        )
        logger.warning("tool call with broken arguments", extra={"tool": name, "arguments": shown})
        write({event_key: "started", "call_id": call_id, "name": name, "args": {}})
        write(
            {
                event_key: "finished",
                "call_id": call_id,
                "name": name,
                "output": text,
                "error": text,
                "duration_ms": 0.0,
                "record_meta": None,
            }
        )
        answers.append(ToolMessage(text, tool_call_id=call_id, name=name, status="error"))
    return answers


def check_broken_rounds(messages: Sequence[AnyMessage], response: Any) -> None:
    """Raise when ``response`` is the :data:`MAX_BROKEN_ROUNDS`-th reply in a row of this turn
    that holds only broken tool calls."""
    if not has_broken_calls(response) or response.tool_calls:
        return
    rounds = 1
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and not is_steer(message):
            break
        if isinstance(message, AIMessage):
            if not has_broken_calls(message) or message.tool_calls:
                break
            rounds += 1
    if rounds >= MAX_BROKEN_ROUNDS:
        raise ProviderBadResponseError(
            f"The model sent tool calls with arguments that are not valid JSON {rounds} times "
            "in a row, so the turn stopped: ask again, or choose another model."
        )
