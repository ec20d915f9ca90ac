"""A streamed tool call runs only on arguments received whole.

langchain builds a streamed reply's tool calls with its lenient JSON reader
(``parse_partial_json``), which closes what a cut stream left open: ``{"content": "Thank yo``
becomes ``{"content": "Thank yo"}``, a call that would run on words the model never finished.
:func:`whole_calls_only` reads each call's arguments as they arrived, strictly, and moves a call
whose arguments are not one whole JSON object to ``invalid_tool_calls``, where the broken-call
answer (:mod:`agents.graph.broken_calls`) tells the model to call again. A reply cut at the
output limit (``finish_reason: "length"``) never gets that far: its outcome is ``truncated``
(:mod:`agents.reply_outcome`) and none of its calls runs.
"""

from __future__ import annotations

from typing import Any, Final

from langchain_core.messages import AIMessageChunk
from langchain_core.messages.tool import invalid_tool_call
from langchain_core.utils.json import parse_partial_json

from agents.providers.call_arguments import is_whole

CUT_ARGUMENTS: Final = "the arguments end before their JSON object does"


def _lenient_object(arguments: str) -> bool:
    """Whether langchain made a tool call (not an invalid one) of ``arguments``."""
    try:
        return isinstance(parse_partial_json(arguments) if arguments else {}, dict)
    except Exception:  # noqa: BLE001 (langchain counts any failure as an invalid call)
        return False


def whole_calls_only(message: Any) -> Any:
    """``message`` with every tool call whose streamed arguments are not whole moved to its
    ``invalid_tool_calls`` (the raw arguments kept); ``message`` itself when all are whole or
    its calls were not built from its chunks."""
    if not isinstance(message, AIMessageChunk):
        return message
    chunks = message.tool_call_chunks
    calls = list(message.tool_calls)
    if not chunks or not calls:
        return message
    built = [chunk for chunk in chunks if _lenient_object(chunk.get("args") or "")]
    if len(built) != len(calls):
        return message  # not langchain's one call per chunk: leave it as it came
    kept, cut = [], []
    for chunk, call in zip(built, calls, strict=True):
        raw = chunk.get("args") or ""
        if is_whole(raw):
            kept.append(call)
        else:
            cut.append(
                invalid_tool_call(name=call["name"], args=raw, id=call["id"], error=CUT_ARGUMENTS)
            )
    if not cut:
        return message
    return message.model_copy(
        update={"tool_calls": kept, "invalid_tool_calls": [*message.invalid_tool_calls, *cut]}
    )


__all__ = ["CUT_ARGUMENTS", "is_whole", "whole_calls_only"]
