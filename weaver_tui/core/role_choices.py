"""The roles' models the user picks in the app for this session (the model picker's "Model
for" selector): a role set to a provider and model, or back to the turn's model.

A choice is held like the turn's model the picker sets (:meth:`Services.switch_model`): for
the running app, from the next turn on, in every conversation, and not written to
``config.yaml``; it takes the place of what the ``roles`` section says for that role. A role's
provider is the configured one's endpoint and key when it is that provider, else the preset's
own (its key variable): a key never goes to a provider it was not given for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from agents.errors import ConfigError
from agents.providers import ProviderConfig, make_chat_model
from agents.role_models import ROLES


@dataclasses.dataclass(frozen=True, slots=True)
class RoleChoice:
    """A role's model as the user picked it (``model`` empty: the turn's model)."""

    role: str
    provider: str = ""
    model: str = ""
    base_url: str | None = None


def role_section(choice: RoleChoice, configured: ProviderConfig) -> dict[str, Any] | None:
    """The ``roles`` entry of ``choice`` (``None``: the role uses the turn's model), its model
    built once to check it can be (raises :class:`ConfigError`, one sentence, when not)."""
    if choice.role not in ROLES:
        raise ConfigError(f"There is no {choice.role!r} role: pick one of {', '.join(ROLES)}.")
    if not choice.model:
        return None
    same = choice.provider in ("", configured.provider)
    config = dataclasses.replace(
        configured,
        provider=choice.provider or configured.provider,
        model=choice.model,
        base_url=choice.base_url or (configured.base_url if same else None),
        api_key=configured.api_key if same else None,
    )
    handle = make_chat_model(config)  # a missing key or an unknown preset: said, nothing set
    section: dict[str, Any] = {"name": handle.provider, "model": handle.model_name}
    if config.base_url:
        section["base_url"] = str(config.base_url)
    if config.api_key is not None:
        section["api_key"] = config.api_key.get_secret_value()
    return section


def with_choices(
    settings: Mapping[str, Any], chosen: Mapping[str, dict[str, Any] | None]
) -> dict[str, Any]:
    """The profiles' settings with the picked roles in place of the configured ones."""
    roles = dict(settings.get("roles") or {})
    for role, section in chosen.items():
        if section is None:
            roles.pop(role, None)
        else:
            roles[role] = section
    return {**settings, "roles": roles}


def role_models(settings: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Each role's (provider, model) as the picker shows it (``("", "")``: the turn's)."""
    roles = settings.get("roles") or {}
    found = {}
    for role in ROLES:
        given = roles.get(role)
        given = given if isinstance(given, Mapping) else {}
        found[role] = (str(given.get("name") or ""), str(given.get("model") or ""))
    return found
