"""Registers the test-only ``researcher`` profile, as the registry registers every profile."""

from __future__ import annotations

RESEARCHER = "researcher"
PACKAGE = "tests.support.research_profile"


def register_test_profiles() -> None:
    """Add ``researcher`` to the registry (idempotent)."""
    import agents.profiles as registry

    if RESEARCHER not in registry.PROFILE_PACKAGES:
        registry.PROFILE_PACKAGES[RESEARCHER] = PACKAGE
        registry.PROFILE_NAMES = tuple(registry.PROFILE_PACKAGES)
