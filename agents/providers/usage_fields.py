"""A server's ``usage`` object reduced to the fields the app reads, each of the type it must have.

Servers differ in what they put in ``usage``: OpenAI sends ``prompt_tokens_details.cached_tokens``
and ``completion_tokens_details.reasoning_tokens``; OpenRouter adds ``cost`` (in credits, a
number); others send nulls, strings or nothing. ``ChatOpenAI`` maps the token counts into
``usage_metadata`` (``input_token_details.cache_read``, ``output_token_details.reasoning``)
and fails on a detail that is not an object; it drops ``cost``.

:func:`clean_usage` is the allowlist applied to every ``usage`` before ``ChatOpenAI`` reads it:
a count is kept only as a non-negative integer (an integral float becomes one), ``cost`` only as
a finite non-negative number, a details object only as an object of such counts; anything else
is dropped, never guessed. The result is ``None`` when nothing is left, so a garbage ``usage``
reads as no usage instead of failing the call. :data:`COST_KEY` is where the cost travels on
the message (its ``response_metadata``), since ``usage_metadata`` has no place for it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

COST_KEY = "cost"
"""``response_metadata[COST_KEY]``: the cost the server reported for the call."""

_COUNTS = ("prompt_tokens", "completion_tokens", "total_tokens")
_DETAILS = {
    "prompt_tokens_details": ("cached_tokens", "audio_tokens", "cache_write_tokens"),
    "completion_tokens_details": ("reasoning_tokens", "audio_tokens"),
}


def count_of(value: object) -> int | None:
    """``value`` as a token count: a non-negative int (not a bool), else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and math.isfinite(value) and value >= 0 and value.is_integer():
        return int(value)
    return None


def cost_of(value: object) -> float | None:
    """``value`` as a cost: a finite non-negative number (not a bool), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    cost = float(value)
    return cost if math.isfinite(cost) and cost >= 0 else None


def clean_usage(raw: object) -> dict[str, Any] | None:
    """The fields of ``raw`` the app reads, well typed; ``None`` when none is."""
    if not isinstance(raw, Mapping):
        return None
    out: dict[str, Any] = {}
    for key in _COUNTS:
        count = count_of(raw.get(key))
        if count is not None:
            out[key] = count
    for key, fields in _DETAILS.items():
        details = raw.get(key)
        if isinstance(details, Mapping):
            kept = {f: c for f in fields if (c := count_of(details.get(f))) is not None}
            if kept:
                out[key] = kept
    cost = cost_of(raw.get(COST_KEY))
    if cost is not None:
        out[COST_KEY] = cost
    return out or None
