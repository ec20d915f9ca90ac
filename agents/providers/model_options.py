"""Sampling options one conversation keeps for its model: temperature and a reply-length cap.

They are stored on the conversation (``meta["model_options"]``) and applied to whichever model
runs its turns, so a brainstorm can run hot and a code review cold with the same provider.
The offline model takes none (it is deterministic by design).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

TEMPERATURE_RANGE = (0.0, 2.0)
MAX_TOKENS_RANGE = (1, 1_000_000)


class BadModelOption(ValueError):
    """An option the user typed that cannot be used, with the sentence that says why."""


@dataclass(frozen=True, slots=True)
class ModelOptions:
    temperature: float | None = None
    max_tokens: int | None = None

    @property
    def empty(self) -> bool:
        return self.temperature is None and self.max_tokens is None

    def as_meta(self) -> dict[str, Any] | None:
        """What is stored on the conversation (``None``: nothing set, the key is removed)."""
        kept = {k: v for k, v in (("temperature", self.temperature), ("max_tokens", self.max_tokens)) if v is not None}  # fmt: skip
        return kept or None

    @classmethod
    def from_meta(cls, stored: object) -> ModelOptions:
        """The options a conversation stored (anything malformed is left out)."""
        if not isinstance(stored, Mapping):
            return cls()
        temperature, max_tokens = stored.get("temperature"), stored.get("max_tokens")
        low, high = TEMPERATURE_RANGE
        return cls(
            float(temperature)
            if isinstance(temperature, int | float) and low <= temperature <= high
            else None,
            int(max_tokens)
            if isinstance(max_tokens, int)
            and MAX_TOKENS_RANGE[0] <= max_tokens <= MAX_TOKENS_RANGE[1]
            else None,
        )

    @classmethod
    def parse(cls, temperature: str, max_tokens: str) -> ModelOptions:
        """Options from what the user typed ("" leaves one unset)."""
        parsed_temperature: float | None = None
        parsed_tokens: int | None = None
        if temperature.strip():
            try:
                parsed_temperature = float(temperature)
            except ValueError:
                parsed_temperature = -1.0
            low, high = TEMPERATURE_RANGE
            if not low <= parsed_temperature <= high:
                raise BadModelOption(
                    f"Temperature is a number from {low:g} to {high:g}, such as 0.7."
                )
        if max_tokens.strip():
            try:
                parsed_tokens = int(max_tokens.replace("_", "").replace(",", ""))
            except ValueError:
                parsed_tokens = 0
            low_n, high_n = MAX_TOKENS_RANGE
            if not low_n <= parsed_tokens <= high_n:
                raise BadModelOption(f"Max tokens is a whole number from {low_n} to {high_n:,}.")
        return cls(parsed_temperature, parsed_tokens)


def with_options(model: BaseChatModel, stored: object) -> BaseChatModel:
    """``model`` with the conversation's stored options (a copy; the shared one is untouched)."""
    options = ModelOptions.from_meta(stored)
    if options.empty:
        return model
    fields = type(model).model_fields
    update = {
        name: value
        for name, value in (
            ("temperature", options.temperature),
            ("max_tokens", options.max_tokens),
        )
        if value is not None and name in fields
    }
    return model.model_copy(update=update) if update else model
