"""The settings sections the profiles own, joined to the app's own when the settings load.

A profile declares its section in its traits (:class:`agents.profile.ProfileSettings`: a name
and the pydantic model that validates it); nothing in the app names it. :func:`with_profile_sections`
gives the settings class with one more field per declared section, so a profile's keys are read
from ``config.yaml``, the environment (``WEAVER_<SECTION>__<KEY>``) and an env file, and a wrong
value is refused with the same one sentence as the app's own.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from pydantic import BaseModel, Field, create_model
from pydantic_settings import BaseSettings

from agents.errors import ConfigError

S = TypeVar("S", bound=BaseSettings)


def declared_sections() -> tuple[tuple[str, str], ...]:
    """(section, model) of every registered profile that owns a settings section, in
    registry order (their traits only are imported)."""
    from agents.profile_registry import list_traits

    return tuple(
        (traits.settings.section, traits.settings.model)
        for _, traits in list_traits()
        if traits.settings is not None
    )


def with_profile_sections(base: type[S]) -> type[S]:
    """``base`` with a field for each section the registered profiles own (``base`` itself
    when none does)."""
    return _joined(base, declared_sections())


@functools.cache
def _joined(base: type[S], sections: tuple[tuple[str, str], ...]) -> type[S]:
    if not sections:
        return base
    from agents.profile_registry import load_handler

    fields: dict[str, Any] = {}
    for section, spec in sections:
        if not section.isidentifier() or section in base.model_fields or section in fields:
            raise ConfigError(
                f"A profile declares the settings section {section!r}, a name another section "
                "already has (or not a valid name); rename the profile's section."
            )
        model = load_handler(spec, f"The settings section {section!r}")
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise ConfigError(
                f"The settings section {section!r} names {spec}, which is not a pydantic model."
            )
        fields[section] = (model, Field(default_factory=model))
    joined: type[S] = create_model(base.__name__, __base__=base, **fields)
    return joined


def owned_sections(settings: BaseSettings, base: type[BaseSettings]) -> dict[str, BaseModel]:
    """The sections of ``settings`` that profiles own (the fields ``base`` does not have)."""
    return {
        name: value
        for name in type(settings).model_fields
        if name not in base.model_fields and isinstance(value := getattr(settings, name), BaseModel)
    }
