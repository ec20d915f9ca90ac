"""The profile registry: the four profiles under their final names, everywhere.

Each profile is a package under ``agents/profiles/`` registered here by one line (name ->
package). The package's ``traits.py`` exposes ``TRAITS`` (what the app needs to show it, light
to import) and its ``profile.py`` exposes ``PROFILE`` (the graph, tools and prompt). Both are
imported on first use, so a profile that fails to import (or is not there yet) costs only its
own entry: the others still load, and asking for it gives one clear sentence. The traits also
declare the profile's command-line verbs, so the command line lists them from the traits alone
and imports a verb's handler only when that verb runs.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

from agents.errors import ConfigError

# The registry itself needs only names: a process that loads no profile (a store verb, the
# knowledge server) never builds the dataclasses of agents.profile.
if TYPE_CHECKING:
    from types import ModuleType

    from agents.profile import Profile, ProfileCommand, ProfileTraits, ProfileVerb

logger = logging.getLogger(__name__)

PROFILE_PACKAGES: dict[str, str] = {
    "mediator": "agents.profiles.mediator",
    "ide-helper": "agents.profiles.ide_helper",
    "paper-pilot": "agents.profiles.paper_pilot",
    "atom-developer": "agents.profiles.atom_developer",
}
PROFILE_NAMES: tuple[str, ...] = tuple(PROFILE_PACKAGES)
DEFAULT_PROFILE = "ide-helper"


class UnknownProfileError(ConfigError):
    code = "unknown_profile"


class HandlerNotLoadedError(ConfigError):
    code = "handler_not_loaded"


class VerbNotLoadedError(ConfigError):
    code = "verb_not_loaded"


_loaded: dict[str, Profile] = {}
_traits: dict[str, ProfileTraits] = {}


def _import(name: str, module: str) -> ModuleType:
    package = PROFILE_PACKAGES.get(name)
    if package is None:
        choices = ", ".join(PROFILE_PACKAGES)
        raise UnknownProfileError(f"There is no profile called {name!r}; choose one of: {choices}.")
    try:
        return importlib.import_module(f"{package}.{module}")
    except ImportError as exc:
        logger.warning("profile failed to import", extra={"profile": name, "error": str(exc)})
        raise UnknownProfileError(f"The profile {name!r} could not be loaded ({exc}).") from exc


def get_profile(name: str) -> Profile:
    """The registered profile called ``name`` (its graph, tools and prompt)."""
    profile = _loaded.get(name)
    if profile is None:
        profile = _loaded[name] = _import(name, "profile").PROFILE
    return profile


def get_traits(name: str) -> ProfileTraits:
    """What the app needs to know to show the profile ``name``, without importing its graph."""
    traits = _traits.get(name)
    if traits is None:
        loaded = _loaded.get(name)  # a profile registered whole (tests) brings its traits
        traits = loaded.traits if loaded is not None else _import(name, "traits").TRAITS
        _traits[name] = traits
    return traits


def list_profiles() -> list[Profile]:
    """Every profile that loads, in registry order."""
    profiles = []
    for name in PROFILE_PACKAGES:
        try:
            profiles.append(get_profile(name))
        except UnknownProfileError:
            continue
    return profiles


def list_traits() -> list[tuple[str, ProfileTraits]]:
    """Every profile whose traits load, by name, in registry order (no graph is imported)."""
    found = []
    for name in PROFILE_PACKAGES:
        try:
            found.append((name, get_traits(name)))
        except UnknownProfileError:
            continue
    return found


def list_verbs() -> list[ProfileVerb]:
    """The command-line verbs the profiles declare, in registry order (no profile's graph or
    verb handler is imported)."""
    return [verb for _, traits in list_traits() for verb in traits.commands]


def load_command(verb: ProfileVerb) -> ProfileCommand:
    """The command that parses and runs ``verb``, imported now from its ``handler``; one that
    cannot be is :class:`VerbNotLoadedError`, which the command line prints as its one line."""
    from agents.profile import ProfileCommand

    module, _, attribute = verb.handler.partition(":")
    try:
        command = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise VerbNotLoadedError(f"The verb {verb.name!r} could not be loaded ({exc}).") from exc
    if not isinstance(command, ProfileCommand) or command.name != verb.name:
        raise VerbNotLoadedError(
            f"The verb {verb.name!r} could not be loaded ({verb.handler} is not its command)."
        )
    return command


def load_handler(spec: str, what: str) -> Any:
    """The object ``spec`` (``"package.module:NAME"``) names, imported now; one that cannot be
    raises :class:`HandlerNotLoadedError` naming ``what`` it was for, in one sentence."""
    module, _, attribute = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError, ValueError) as exc:
        raise HandlerNotLoadedError(f"{what} could not be loaded ({exc}).") from exc


__all__ = [
    "DEFAULT_PROFILE",
    "PROFILE_NAMES",
    "PROFILE_PACKAGES",
    "HandlerNotLoadedError",
    "UnknownProfileError",
    "VerbNotLoadedError",
    "get_profile",
    "get_traits",
    "list_profiles",
    "list_traits",
    "list_verbs",
    "load_command",
    "load_handler",
]
