"""A request longer than the model's context window: learn the window, cut the request to fit,
ask once more, and say so; or, when it cannot fit, one sentence on what to do.

The class: a 400 (or 413) saying the request does not fit the model's context, in any of the
shapes servers use: OpenAI's ``context_length_exceeded`` code, "maximum context length is N"
(OpenAI, vLLM, DeepSeek), "longer than the model's context length (N tokens)" (SGLang),
"too large for model with N maximum context length" (Mistral), llama.cpp's
``exceed_context_size_error`` with ``n_ctx``, "exceeded model token limit: N" (Moonshot),
"prompt is too long: M tokens > N maximum" (Anthropic's endpoint), "the input token count (M)
exceeds the maximum number of tokens allowed (N)" (Gemini's endpoint), "`inputs` tokens +
`max_new_tokens` must be <= N" (text-generation-inference, Together), "context length of only N
tokens" (LM Studio), and the ones that name no window: "prompt too long; exceeded max context
length by K tokens" (Ollama), "input is too long for requested model" (Bedrock behind a
proxy). For each of them:

- the window N, when the server names it, is remembered for that base URL and model for the
  life of the process (as the need to send reasoning back is), in the approximate tokens this
  program counts (N scaled by what the server counted against what we estimated): every later
  call to that model is cut to fit before it is sent, and the agent node's own cut, which keeps
  pinned messages, reads it too (:func:`learned_context_window`);
- the failed call is cut to fit (:func:`agents.context_budget.fit_to_window`: older messages
  dropped whole, system messages and the current question always kept) and asked once more,
  with a status line saying so; with no N named, the request is cut to half;
- when cutting drops nothing, or what must be kept alone is too long, or the one more try
  overflows again, the call fails with :class:`ContextTooLongError`, one sentence naming the
  palette command "Summarise older turns".
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from agents.errors import ProviderBadResponseError

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

logger = logging.getLogger(__name__)

SUMMARISE_COMMAND = "Summarise older turns"

_NUMBER = r"(\d[\d,]*)"
_WINDOW = [
    re.compile(p, re.I)
    for p in (
        rf"maximum context length (?:is|of) {_NUMBER}",
        rf"context length \({_NUMBER} tokens\)",
        rf"model with {_NUMBER} maximum context length",
        rf"tokens > {_NUMBER} maximum",
        rf"\"n_ctx\"\s*:\s*{_NUMBER}",
        rf"(?:context window|context size|context length|token limit)(?: is| of|:)?\s*{_NUMBER}",
        rf"maximum number of tokens allowed \({_NUMBER}\)",
        rf"must be <= {_NUMBER}",
        rf"context length of only {_NUMBER}",
    )
]
_REQUESTED = [
    re.compile(p, re.I)
    for p in (
        rf"\({_NUMBER} in the messages",
        rf"resulted in {_NUMBER} tokens",
        rf"you requested {_NUMBER} tokens",
        rf"prompt contains {_NUMBER} tokens",
        rf"input \({_NUMBER} tokens\)",
        rf"{_NUMBER} tokens > \d",
        rf"\"n_prompt_tokens\"\s*:\s*{_NUMBER}",
        rf"input token count \({_NUMBER}\)",
        rf"given: {_NUMBER} `?inputs`? tokens",
    )
]
_CODES = ("context_length_exceeded", "exceed_context_size_error", "context_window_exceeded")
_PHRASES = (
    "prompt is too long",
    "exceeds the context",
    "exceeds the available context",
    "exceeded model token limit",
    "maximum context length",
    "reduce the length of the messages",
    "exceeds the maximum number of tokens",
    "max context length",
    "prompt too long",
    "input is too long",
    "context the overflows",
)


class ContextTooLongError(ProviderBadResponseError):
    """The request does not fit the model's context window even cut to what must be kept."""

    code = "context_too_long"


@dataclass(frozen=True)
class Overflow:
    """What a context-overflow answer says: the window and the tokens it counted, if named."""

    window: int | None = None
    requested: int | None = None


def _first_number(patterns: list[re.Pattern[str]], text: str) -> int | None:
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            value = int(found.group(1).replace(",", ""))
            if value > 0:
                return value
    return None


def read_overflow(exc: BaseException) -> Overflow | None:
    """What ``exc`` says about an overflowing request, or ``None`` when it is about another
    thing (any 400 that names no context overflow is left as it is)."""
    status = getattr(exc, "status_code", None)
    if status not in (400, 413):
        return None
    body = getattr(exc, "body", None)
    try:
        text = f"{getattr(exc, 'message', '')} {json.dumps(body, default=str)}"
    except (TypeError, ValueError):
        text = f"{getattr(exc, 'message', '')} {body}"
    lowered = text.lower()
    window = _first_number(_WINDOW, text)
    named = any(code in lowered for code in _CODES) or any(p in lowered for p in _PHRASES)
    if window is None and not named and not _is_langchain_overflow(exc):
        return None
    return Overflow(window, _first_number(_REQUESTED, text))


def _is_langchain_overflow(exc: BaseException) -> bool:
    try:
        from langchain_core.exceptions import ContextOverflowError
    except ImportError:  # an older langchain-core without the class
        return False
    return isinstance(exc, ContextOverflowError)


_LEARNED: dict[tuple[str, str], int] = {}
"""(base URL, model) -> the context window learned from an overflow, in approximate tokens."""


def learned_context_window(base_url: str | None, model: str) -> int | None:
    """The window an overflow taught for ``model`` at ``base_url`` (approximate tokens)."""
    return _LEARNED.get((base_url or "", model))


def effective_context_window(known: int | None, base_url: str | None, model: str) -> int | None:
    """The smaller of a known window and a learned one (either may be unknown)."""
    learned = learned_context_window(base_url, model)
    if known is None or learned is None:
        return known if learned is None else learned
    return min(known, learned)


@dataclass
class ContextWindow:
    """The overflow handling of one model call to ``model`` at ``base_url``."""

    base_url: str | None
    model: str
    trimmed: bool = False

    def prepare(self, messages: list[BaseMessage]) -> list[BaseMessage]:
        """``messages`` cut to a window learned earlier (unchanged when none was)."""
        window = learned_context_window(self.base_url, self.model)
        if window is None:
            return messages
        return _fit(messages, window)

    def refit(self, exc: BaseException, messages: list[BaseMessage]) -> list[BaseMessage] | None:
        """After ``exc``: the messages cut to fit, to ask once more with; ``None`` when ``exc``
        is no overflow. Raises :class:`ContextTooLongError` when the request cannot fit or
        was cut already."""
        overflow = read_overflow(exc)
        if overflow is None:
            return None
        from langchain_core.messages.utils import count_tokens_approximately

        from agents.context_budget import request_budget

        sent = count_tokens_approximately(messages)
        window = self._learn(overflow, sent)
        if self.trimmed:
            raise too_long(overflow, exc)
        fitted = _fit(messages, window)
        kept = count_tokens_approximately(fitted)
        if kept >= sent or kept > request_budget(window):
            raise too_long(overflow, exc)
        self.trimmed = True
        logger.info(
            "request longer than the model's context window; cut and asking again",
            extra={"window": overflow.window, "sent": len(messages), "kept": len(fitted)},
        )
        return fitted

    def _learn(self, overflow: Overflow, sent: int) -> int:
        """The window to cut to, in approximate tokens (remembered when the server named it)."""
        if overflow.window is None:
            return max(1, sent * 2 // 3)  # its budget is half of what was sent
        scale = min(1.0, sent / overflow.requested) if overflow.requested else 1.0
        window = max(1, int(overflow.window * scale))
        key = (self.base_url or "", self.model)
        _LEARNED[key] = min(window, _LEARNED.get(key, window))
        return _LEARNED[key]


def _fit(messages: list[BaseMessage], window: int) -> list[BaseMessage]:
    """``messages`` cut to ``window`` as the agent node cuts them (no pins known here)."""
    from agents.context_budget import fit_to_window

    return [message for message in fit_to_window(cast("Any", messages), window)]


def too_long(overflow: Overflow | None, cause: BaseException | None = None) -> ContextTooLongError:
    """The one sentence for a request that cannot fit the model's context window."""
    size = f" ({overflow.window:,} tokens)" if overflow and overflow.window else ""
    error = ContextTooLongError(
        f"The conversation does not fit the model's context window{size} even with older "
        f'messages left out: run "{SUMMARISE_COMMAND}" from the command palette, leave long '
        "messages out of the context, or pick a model with a larger window."
    )
    error.__cause__ = cause
    return error


def overflow_status(trimmed_to: int | None) -> str:
    """The status line of a call cut to fit and asked again."""
    size = f" ({trimmed_to:,} tokens)" if trimmed_to else ""
    return f"the request was longer than the model's context window{size}: older messages left out, asking again"
