"""The throwaway profile's traits: a project panel, a named stage and its own reply badge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.profile import ProfileTraits


def reply_badge(meta: Mapping[str, Any]) -> str | None:
    return f"checked by {meta['provider']}" if meta.get("provider") else None


TRAITS = ProfileTraits(
    project_root=True,
    preview=False,
    panel="project",
    stages={"check": "Checking"},
    badge="THROWAWAY",
    reply_badge=reply_badge,
)
