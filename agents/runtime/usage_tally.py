"""The tokens of every model call a turn makes, summed: the turn's usage.

A profile's graph may call its model in many places: the answer node, and internal stages
(paper-pilot's router, critic and synthesis; atom-developer's drafts and fixes) whose replies
never reach the answer stream. :class:`UsageTally` is a callback handler attached to the whole
graph run: every model call inside it ends with ``on_llm_end``, whose message carries the usage
the provider reported (wherever its stream put it, see :mod:`agents.providers.openai_reasoning`).
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult

from agents.runtime.events import Usage


class UsageTally(BaseCallbackHandler):
    """Sums ``usage_metadata`` over the model calls of one turn."""

    run_inline = True
    """Called in the event loop, in order (a plain sum: nothing to wait for)."""

    def __init__(self) -> None:
        self.usage = Usage(0, 0, 0)
        self.calls = 0
        """Model calls that reported usage."""

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                data = getattr(getattr(generation, "message", None), "usage_metadata", None)
                if data:
                    self.calls += 1
                    self.usage = Usage(
                        self.usage.input_tokens + int(data.get("input_tokens", 0)),
                        self.usage.output_tokens + int(data.get("output_tokens", 0)),
                        self.usage.total_tokens + int(data.get("total_tokens", 0)),
                    )
