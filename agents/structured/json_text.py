"""A JSON object read from a model's prose: a ```json fence, any fence, or the first object
in the text. Reasoning the model wrote inline (``<think>...</think>``) is left out first, so
an object it only considered is not taken for its answer."""

from __future__ import annotations

import json
import re
from typing import Any

from agents.providers.thinking import split_thinking

_FENCE = re.compile(r"```[ \t]*(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)```", re.S)


def _object_at(text: str, start: int) -> dict[str, Any] | None:
    try:
        found, _ = json.JSONDecoder().raw_decode(text, start)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _first_object(text: str) -> dict[str, Any] | None:
    for match in re.finditer(r"\{", text):
        found = _object_at(text, match.start())
        if found is not None:
            return found
    return None


def json_object_in(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` answers with; ``None`` when it holds none."""
    _, answer = split_thinking(text)
    fences = [(m.group("lang").lower(), m.group("body")) for m in _FENCE.finditer(answer)]
    fences.sort(key=lambda fence: fence[0] != "json")  # a ```json fence first, others after
    for _, body in fences:
        found = _first_object(body)
        if found is not None:
            return found
    return _first_object(answer)


def json_objects_in(text: str) -> list[dict[str, Any]]:
    """Every JSON object ``text`` holds at its top level (reasoning written inline aside): the
    objects of its fences (```json ones first), then those of the text itself, in order."""
    _, answer = split_thinking(text)
    fences = [(m.group("lang").lower(), m.group("body")) for m in _FENCE.finditer(answer)]
    fences.sort(key=lambda fence: fence[0] != "json")
    found: list[dict[str, Any]] = []
    for body in [*(body for _, body in fences), answer]:
        found.extend(_top_objects(body))
    return found


def _top_objects(text: str) -> list[dict[str, Any]]:
    """The JSON objects of ``text`` not inside another one, in order."""
    out: list[dict[str, Any]] = []
    decoder = json.JSONDecoder()
    position = 0
    while (start := text.find("{", position)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            position = start + 1
            continue
        if isinstance(value, dict):
            out.append(value)
        position = end
    return out


def only_json_object(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` is, and nothing else: the whole answer (reasoning written inline
    aside), or one ```json (or bare) fence that is the whole answer; ``None`` otherwise, so
    prose that merely contains an object is never taken for one."""
    _, answer = split_thinking(text)
    answer = answer.strip()
    fence = _FENCE.fullmatch(answer)
    if fence is not None and fence.group("lang").lower() in ("", "json"):
        answer = fence.group("body").strip()
    try:
        found = json.loads(answer)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None
