"""What the app needs to know to show this profile: one user, no panel of its own. Imports
nothing but the profile types."""

from __future__ import annotations

from agents.profile import ProfileTraits

TRAITS = ProfileTraits()
