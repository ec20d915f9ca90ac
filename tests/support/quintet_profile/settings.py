"""The quintet profile's own settings section (``quintet:`` in config.yaml,
``WEAVER_QUINTET__GREETING`` in the environment)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class QuintetSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    greeting: str = "Hello"
    """What each reply starts with."""
    every: int = Field(default=1, ge=1)
    """Count every Nth message only (a setting with a range to refuse)."""
