"""Registers the test-only ``researcher`` profile, as the registry registers every profile, and
the ``gated`` one in a process started with ``GATED_PROFILE_FIFO`` (:mod:`.gated_profile`)."""

from __future__ import annotations

import os

RESEARCHER = "researcher"
PACKAGE = "tests.support.research_profile"
GATED = "gated"
GATED_PACKAGE = "tests.support.gated_profile"


def register_test_profiles() -> None:
    """Add ``researcher`` (and ``gated`` when asked for) to the registry (idempotent)."""
    import agents.profile_registry as registry

    if RESEARCHER not in registry.PROFILE_PACKAGES:
        registry.PROFILE_PACKAGES[RESEARCHER] = PACKAGE
    if os.environ.get("GATED_PROFILE_FIFO") and GATED not in registry.PROFILE_PACKAGES:
        registry.PROFILE_PACKAGES[GATED] = GATED_PACKAGE
    registry.PROFILE_NAMES = tuple(registry.PROFILE_PACKAGES)
