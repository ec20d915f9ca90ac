"""The researcher's traits: the launch reads them without importing the gated graph module."""

from __future__ import annotations

from tests.support.research_profile.traits import TRAITS

__all__ = ["TRAITS"]
