"""The profile registry: the four profiles under their final names, everywhere.

Each profile package exposes ``PROFILE`` in ``agents/profiles/<package>/profile.py``. Packages
are imported on first use, so a profile that fails to import (or is not there yet) costs only
its own entry: the others still load, and asking for it gives one clear sentence.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator, Mapping

from agents.errors import ConfigError
from agents.profile import Profile

logger = logging.getLogger(__name__)

PROFILE_MODULES: dict[str, str] = {
    "mediator": "agents.profiles.mediator.profile",
    "ide-helper": "agents.profiles.ide_helper.profile",
    "paper-pilot": "agents.profiles.paper_pilot.profile",
    "atom-developer": "agents.profiles.atom_developer.profile",
}
PROFILE_NAMES: tuple[str, ...] = tuple(PROFILE_MODULES)
DEFAULT_PROFILE = "ide-helper"


class UnknownProfileError(ConfigError):
    code = "unknown_profile"


_loaded: dict[str, Profile] = {}


def get_profile(name: str) -> Profile:
    """The profile called ``name`` (``mediator``, ``ide-helper``, ``paper-pilot``, ``atom-developer``)."""
    profile = _loaded.get(name)
    if profile is not None:
        return profile
    module_name = PROFILE_MODULES.get(name)
    if module_name is None:
        raise UnknownProfileError(
            f"There is no profile called {name!r}; choose one of: {', '.join(PROFILE_NAMES)}."
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        logger.warning("profile failed to import", extra={"profile": name, "error": str(exc)})
        raise UnknownProfileError(f"The profile {name!r} could not be loaded ({exc}).") from exc
    profile = module.PROFILE
    _loaded[name] = profile
    return profile


def list_profiles() -> list[Profile]:
    """Every profile that loads, in registry order."""
    profiles = []
    for name in PROFILE_NAMES:
        try:
            profiles.append(get_profile(name))
        except UnknownProfileError:
            continue
    return profiles


class _Registry(Mapping[str, Profile]):
    """``PROFILES["paper-pilot"]``: a read-only, lazily importing view of the registry."""

    def __getitem__(self, name: str) -> Profile:
        try:
            return get_profile(name)
        except UnknownProfileError as exc:
            raise KeyError(name) from exc

    def __iter__(self) -> Iterator[str]:
        return iter(PROFILE_NAMES)

    def __len__(self) -> int:
        return len(PROFILE_NAMES)


PROFILES: Mapping[str, Profile] = _Registry()

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "PROFILE_NAMES",
    "UnknownProfileError",
    "get_profile",
    "list_profiles",
]
