"""The tokens of every model call a turn makes, summed: the turn's usage.

A profile's graph may call its model in many places: the answer node, and internal stages
(paper-pilot's router, critic and synthesis; atom-developer's drafts and fixes) whose replies
never reach the answer stream. :class:`UsageTally` is a callback handler attached to the whole
graph run: every model call inside it ends with ``on_llm_end``, whose message carries the usage
the provider reported (wherever its stream put it, see :mod:`agents.providers.openai_reasoning`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult

from agents.providers.usage_fields import COST_KEY, cost_of, count_of
from agents.runtime.events import Usage
from storage.usage_text import usage_text


def usage_of(message: object) -> Usage | None:
    """The usage a model call's message reports, or ``None`` when it reports none.

    Read from ``usage_metadata`` (its counts and ``input_token_details.cache_read``,
    ``output_token_details.reasoning``) and ``response_metadata[COST_KEY]``; every field is
    read through the same allowlist as the wire (:mod:`agents.providers.usage_fields`), so a
    message built elsewhere with a missing, null or mistyped field reads as that field not
    reported, never as an error.
    """
    data = getattr(message, "usage_metadata", None)
    metadata = getattr(message, "response_metadata", None)
    cost = cost_of(metadata.get(COST_KEY)) if isinstance(metadata, Mapping) else None
    if not isinstance(data, Mapping) or not data:
        return None if cost is None else Usage(0, 0, 0, cost=cost)
    return Usage(
        count_of(data.get("input_tokens")) or 0,
        count_of(data.get("output_tokens")) or 0,
        count_of(data.get("total_tokens")) or 0,
        _detail(data, "input_token_details", "cache_read"),
        _detail(data, "output_token_details", "reasoning"),
        cost,
    )


def _detail(data: Mapping[str, Any], group: str, key: str) -> int | None:
    details = data.get(group)
    return count_of(details.get(key)) if isinstance(details, Mapping) else None


def usage_line(usage: Usage) -> str:
    """``usage`` as one line (:func:`storage.usage_text.usage_text`)."""
    return usage_text(usage.as_meta())


class UsageTally(BaseCallbackHandler):
    """Sums the usage (details and cost too) over the model calls of one turn."""

    run_inline = True
    """Called in the event loop, in order (a plain sum: nothing to wait for)."""

    def __init__(self) -> None:
        self.usage = Usage(0, 0, 0)
        self.calls = 0
        """Model calls that reported usage."""

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                usage = usage_of(getattr(generation, "message", None))
                if usage is not None:
                    self.calls += 1
                    self.usage = self.usage.plus(usage)
