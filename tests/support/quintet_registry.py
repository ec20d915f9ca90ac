"""The one line that registers the fifth test profile, ``quintet``."""

from __future__ import annotations

import pytest

QUINTET = "quintet"


def register_quintet(patch: pytest.MonkeyPatch) -> None:
    import agents.profile_registry as registry

    packages = {**registry.PROFILE_PACKAGES, QUINTET: "tests.support.quintet_profile"}
    patch.setattr(registry, "PROFILE_PACKAGES", packages)
    patch.setattr(registry, "PROFILE_NAMES", tuple(packages))
