"""The shape of a chat-completion chunk (or a whole completion's message), as a reader may
rely on it.

Guarantee (checked with generated chunks on every call path in
``tests/providers/test_every_call_path.py``): :func:`shape_problem` is ``None`` only for a
chunk that is an object whose ``choices`` (if any) are a list of objects, each ``delta`` an
object or null, and :func:`fields_problem` is ``None`` only for fields where ``content`` is
text, a list of parts or null, ``role``, ``refusal`` and reasoning text or null,
``function_call`` an object or null, ``tool_calls`` a list of objects whose ``function`` is an
object or null, and a function's ``name`` text or null. Anything else is an answer in an
unexpected shape, said in one sentence: a field of another type never reaches a reader that
would take it for something else (a call with no name, a number's ``str`` as text) or fail on
it unexpectedly.
"""

from __future__ import annotations

from typing import Any

_TEXT_FIELDS = ("content", "role", "refusal", "reasoning_content", "reasoning")


def shape_problem(chunk: Any) -> str | None:
    """What keeps ``chunk`` from being a chat-completion chunk (see the module), or ``None``."""
    if type(chunk) is not dict:
        return f"a JSON {type(chunk).__name__}, not an object"
    choices = chunk.get("choices")
    if choices is None:
        return None
    if type(choices) is not list:
        return "its choices are not a list"
    for choice in choices:
        if type(choice) is not dict:
            return "a choice is not an object"
        delta = choice.get("delta")
        if delta is None:
            continue
        if type(delta) is not dict:
            return "a delta is not an object"
        problem = fields_problem(delta)
        if problem is not None:
            return problem
    return None


def fields_problem(delta: dict[str, Any]) -> str | None:
    """What keeps a delta, or a whole completion's message, from having the fields' types."""
    for field in _TEXT_FIELDS:
        value = delta.get(field)
        if (
            value is not None
            and type(value) is not str
            and not (field == "content" and type(value) is list)
        ):
            return f"its {field} is not text"
    legacy = delta.get("function_call")
    if legacy is not None and type(legacy) is not dict:
        return "its function call is not an object"
    calls = delta.get("tool_calls")
    if calls is None:
        return None
    if type(calls) is not list:
        return "its tool calls are not a list"
    for call in calls:
        if type(call) is not dict:
            return "a tool call is not an object"
        function = call.get("function")
        if function is None:
            continue
        if type(function) is not dict:
            return "a tool call's function is not an object"
        name = function.get("name")
        if name is not None and type(name) is not str:
            return "a tool call's name is not text"
    return None
