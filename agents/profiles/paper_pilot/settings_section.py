"""paper-pilot's own settings section (``paper_pilot:`` in config.yaml,
``WEAVER_PAPER_PILOT__MAX_RETRIES`` ...): its limits, checked when the settings load; the profile
reads them through :func:`agents.profiles.paper_pilot.limits.limits_of`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PaperPilotSettings(BaseModel):
    """The research profile's limits (``paper_pilot:``); a misspelt key is refused."""

    model_config = ConfigDict(extra="forbid", validate_default=True)

    max_retries: int = Field(default=2, ge=0, le=5)
    """Retrievals again after the critic rejects an answer, before it is settled."""
    plan_steps: int = Field(default=3, ge=1, le=8)
    """The most search steps of a multi-hop plan."""
    react_steps: int = Field(default=3, ge=1, le=8)
    """The most search steps of an exploratory question."""
    max_queries: int = Field(default=6, ge=1, le=20)
    """The most searches a comparison runs at once."""
    memory_top_k: int = Field(default=3, ge=0, le=20)
    """Remembered facts recalled for a question."""
    follow_up_top_k: int = Field(default=6, ge=0, le=30)
    """Remembered facts recalled for a follow-up, with the question rewritten to stand alone."""
