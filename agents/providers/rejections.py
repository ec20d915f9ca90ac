"""Which request feature a provider refused: a forced tool choice, tools, or a JSON mode.

Servers answer HTTP 400 with their own words when a model cannot do what a request asks:
DeepSeek's reasoner, Qwen and Kimi in thinking mode reject a forced ``tool_choice``
("does not support this tool_choice"), some Ollama models reject ``tools`` ("does not support
tools"), some servers reject ``response_format``. Structured output reads these to step down
to a request the model accepts; the error translation reads them to name what to change.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any


class Refused(Enum):
    """A feature of the request the provider said the model does not support."""

    TOOL_CHOICE = "tool_choice"
    TOOLS = "tools"
    RESPONSE_FORMAT = "response_format"


_NOT_SUPPORTED = r"(?:not supported|unsupported|does not support|doesn't support|not support|is not available|invalid|not allowed)"  # fmt: skip
_TOOLS = rf"{_NOT_SUPPORTED}.{{0,40}}\btools?\b|\btools?\b.{{0,40}}{_NOT_SUPPORTED}|enable-auto-tool-choice"
_PATTERNS = (
    (Refused.TOOL_CHOICE, re.compile(rf"tool_choice|{_NOT_SUPPORTED}.{{0,40}}tool.choice", re.I)),
    (Refused.RESPONSE_FORMAT, re.compile(r"response_format|json_object|json mode", re.I)),
    (Refused.TOOLS, re.compile(_TOOLS, re.I)),
)


def provider_text(exc: BaseException) -> str:
    """The provider's own words in an SDK error (its ``error.message``, else the error text)."""
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    return str(message or getattr(exc, "message", "") or exc)


def refused_feature(exc: BaseException) -> Refused | None:
    """The feature a 400/422 answer refused, or ``None`` for any other failure."""
    status: Any = getattr(exc, "status_code", None)
    if status not in (400, 422):
        return None
    text = provider_text(exc)
    for feature, pattern in _PATTERNS:
        if pattern.search(text):
            return feature
    return None


__all__ = ["Refused", "provider_text", "refused_feature"]
