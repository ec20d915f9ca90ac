"""One user, no panel of its own."""

from __future__ import annotations

from agents.profile import ProfileTraits

TRAITS = ProfileTraits()
