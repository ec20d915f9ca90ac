"""paper-pilot's limits, from its settings section (``paper_pilot:`` in config.yaml, checked
there) with the same defaults when a key is not set: retries, plan and ReAct steps, queries
of a comparison, memory recall, and the web search's results."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Limits:
    max_retries: int = 2
    plan_steps: int = 3
    react_steps: int = 3
    max_queries: int = 6
    memory_top_k: int = 3
    follow_up_top_k: int = 6
    web_max_results: int = 5


def limits_of(settings: Mapping[str, Any]) -> Limits:
    """The limits the profile's settings set (a value that is not a whole number of at least
    0, or 1 for a count of steps, keeps its default)."""
    given = dict(settings.get("paper_pilot") or {})
    web = settings.get("web_search") or {}
    if "max_results" in web:
        given["web_max_results"] = web["max_results"]
    chosen: dict[str, int] = {}
    for field in fields(Limits):
        value = given.get(field.name)
        least = 0 if field.name in ("max_retries", "memory_top_k", "follow_up_top_k") else 1
        if isinstance(value, int) and not isinstance(value, bool) and value >= least:
            chosen[field.name] = value
    return Limits(**chosen)
