"""The four places settings come from, as pydantic-settings sources, highest first.

:class:`ArgumentsSource` (command-line options), :class:`EnvironmentSource` (``WEAVER_*``
variables, nested with ``__``, and ``AGENT_LOG_REDACT_CONTENT``), :class:`EnvFileSource` (the
dotenv file the user named; never a ``.env`` they did not) and :class:`ConfigFileSource` (the
YAML file). Each renames the flat names of earlier versions to their nested place before the
sources are merged (:mod:`weaver_tui.core.settings.names`). :class:`SettingsSources` builds the
four for one load, in order, and says which of them gave a value: for the one-line message
about a bad value, and so a key is never sent to an address only the env file chose.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic_settings import (
    DotEnvSettingsSource,
    EnvSettingsSource,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    YamlConfigSettingsSource,
)

from agents.errors import ConfigError
from weaver_tui.core.settings.early import default_config_file
from weaver_tui.core.settings.files import (
    ENV_FILE_SETTING,
    choose_env_file,
    read_env_file,
    read_yaml_config,
)
from weaver_tui.core.settings.names import (
    ENV_PREFIX,
    FLAT_NAMES,
    NESTED_DELIMITER,
    REDACT_ALIAS_ENV,
    flat_variable_renames,
    lookup,
    nest_flat_names,
)

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings

CONFIG_FILE_ARGUMENT = "config_file"
"""The argument naming the YAML file (``--config``)."""
REQUIRE_CONFIG_ARGUMENT = "require_config"
"""The argument saying that file must exist (the user named it on the command line)."""

_REDACT_TARGET = (ENV_PREFIX + "logging__redact_content").lower()


class ArgumentsSource(InitSettingsSource):
    """Values given to ``load_settings`` or ``Settings(...)``, flat names or nested sections."""

    def __init__(self, settings_cls: type[BaseSettings], arguments: Mapping[str, Any]) -> None:
        given = {key: value for key, value in arguments.items() if value is not None}
        given.pop(CONFIG_FILE_ARGUMENT, None)
        given.pop(REQUIRE_CONFIG_ARGUMENT, None)
        nested, self.flat_names = nest_flat_names(given)
        super().__init__(settings_cls, nested)

    def where(self, path: tuple[str, ...]) -> tuple[str, str]:
        return self.flat_names.get(path[:2], ".".join(path)), "the command-line options"


class _RenamingEnvSource(EnvSettingsSource):
    """An env source that reads flat ``WEAVER_*`` names as their nested twins."""

    renamed: dict[str, str]

    def _rename(self, variables: Mapping[str, str | None]) -> dict[str, str | None]:
        prefix = ENV_PREFIX.lower()
        renames = flat_variable_renames(list(variables), prefix)
        self.renamed = {new: old for old, new in renames.items()}
        return {renames.get(name, name): value for name, value in variables.items()}

    def variable_for(self, path: tuple[str, ...]) -> str | None:
        """The variable (as the user named it) that set ``path``, if this source has it."""
        name = (ENV_PREFIX + NESTED_DELIMITER.join(path)).lower()
        for candidate in (name, *(n for n in self.env_vars if name.startswith(n + "__"))):
            if self.env_vars.get(candidate):
                return self.renamed.get(candidate, candidate).upper()
        return None


class EnvironmentSource(_RenamingEnvSource):
    """``WEAVER_*`` variables in any case (empty ones ignored), and ``AGENT_LOG_REDACT_CONTENT``
    below the ``WEAVER_*`` names for the same setting."""

    def _load_env_vars(self) -> Mapping[str, str | None]:
        variables = self._rename(super()._load_env_vars())
        alias = variables.get(REDACT_ALIAS_ENV.lower())
        if alias and not variables.get(_REDACT_TARGET):
            variables[_REDACT_TARGET] = alias
            self.renamed[_REDACT_TARGET] = REDACT_ALIAS_ENV.lower()
        return variables

    def where(self, path: tuple[str, ...]) -> tuple[str, str]:
        variable = self.variable_for(path) or ENV_PREFIX + NESTED_DELIMITER.join(path).upper()
        return _name_of(variable, path), f"the environment variable {variable}"


class EnvFileSource(_RenamingEnvSource, DotEnvSettingsSource):
    """The dotenv file the user named, read as strictly as the config file (a regular file of
    bounded size; a missing one is an error). It cannot name another env file. Its provider
    key variables (``MOONSHOT_API_KEY`` ...) are kept for the provider, below the environment."""

    variables: dict[str, str]

    def __init__(self, settings_cls: type[BaseSettings], path: Path | None) -> None:
        self.path = path
        super().__init__(settings_cls, env_file=path, dotenv_filtering="only_existing")

    def _read_env_files(self) -> Mapping[str, str | None]:
        self.variables = read_env_file(self.path)
        lowered = {name.lower(): value for name, value in self.variables.items()}
        lowered.pop((ENV_PREFIX + ENV_FILE_SETTING).lower(), None)
        return self._rename(lowered)

    def where(self, path: tuple[str, ...]) -> tuple[str, str]:
        variable = self.variable_for(path) or ".".join(path)
        where = f"the env file {self.path.absolute()}" if self.path else "the env file"
        return _name_of(variable, path), where


class ConfigFileSource(YamlConfigSettingsSource):
    """The YAML config file: ``--config`` (which must exist), else the file ``WEAVER_CONFIG``
    names, else ``config.yaml`` in the user config folder. Unknown top-level keys are refused
    by name (a typo would otherwise be ignored); unknown keys in a section, by validation."""

    flat_names: dict[tuple[str, ...], str]
    other_keys: frozenset[str] = frozenset()
    """Top-level keys the settings class read with does not have: sections the profiles own
    (any other key is refused)."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path, *, required: bool) -> None:
        self.path, self.required = path, required
        self.known_keys = (set(settings_cls.model_fields) | set(FLAT_NAMES)) - {
            CONFIG_FILE_ARGUMENT
        }
        super().__init__(settings_cls, yaml_file=path)

    def _read_files(self, files: Any, deep_merge: bool = False) -> dict[str, Any]:
        data = read_yaml_config(self.path, None, required=self.required)
        self.other_keys = frozenset(key for key in data if key not in self.known_keys)
        if self.other_keys:
            from weaver_tui.core.settings.profile_sections import declared_sections

            owned = {section for section, _ in declared_sections()}
            for key in sorted(self.other_keys - owned):
                raise ConfigError(
                    f"Unknown setting {key!r} in {self.path}; check its spelling against the "
                    "README."
                )
        nested, self.flat_names = nest_flat_names(data)
        return nested

    def where(self, path: tuple[str, ...]) -> tuple[str, str]:
        return self.flat_names.get(path[:2], ".".join(path)), f"the config file {self.path}"


def _name_of(variable: str, path: tuple[str, ...]) -> str:
    """The setting a variable set, named as the user wrote it: flat for a flat variable."""
    if variable == REDACT_ALIAS_ENV:
        return "log_redact_content"
    bare = variable.lower().removeprefix(ENV_PREFIX.lower())
    return bare if bare in FLAT_NAMES or bare == "provider" else ".".join(path)


@dataclass(frozen=True)
class SettingsSources:
    """The sources of one load, highest first, each read once."""

    arguments: ArgumentsSource
    environment: EnvironmentSource
    env_file: EnvFileSource
    config_file: ConfigFileSource

    @classmethod
    def build(
        cls, settings_cls: type[BaseSettings], arguments: Mapping[str, Any]
    ) -> SettingsSources:
        """Read every source. The config file is read first: it may name the env file."""
        named = arguments.get(CONFIG_FILE_ARGUMENT)
        path = Path(named).expanduser() if named else default_config_file()
        required = bool(arguments.get(REQUIRE_CONFIG_ARGUMENT))
        config = ConfigFileSource(settings_cls, path, required=required)
        env_path = choose_env_file(arguments.get(ENV_FILE_SETTING), config.init_kwargs)
        given = {**arguments, ENV_FILE_SETTING: env_path}
        return cls(
            ArgumentsSource(settings_cls, given),
            EnvironmentSource(settings_cls),
            EnvFileSource(settings_cls, env_path),
            config,
        )

    def ordered(self) -> tuple[PydanticBaseSettingsSource, ...]:
        return (self.arguments, self.environment, self.env_file, self.config_file)

    def other_sections(self, known: set[str], arguments: Mapping[str, Any]) -> bool:
        """Whether any source sets a section outside ``known`` (the app's own fields): a
        section a profile owns, which only then needs the profiles' traits read."""
        if self.config_file.other_keys:
            return True
        if any(key.lower() not in known and value is not None for key, value in arguments.items()):
            return True
        names = [*os.environ, *self.env_file.variables]
        prefix = ENV_PREFIX.lower()
        for name in names:
            lowered = name.lower()
            if lowered.startswith(prefix) and "__" in lowered:
                section = lowered.removeprefix(prefix).split("__", 1)[0]
                if section not in known:
                    return True
        return False

    def origin(self, path: tuple[str, ...]) -> tuple[str, str]:
        """The setting at ``path`` as the user named it, and the source that gave it."""
        for depth in range(len(path), 0, -1):
            for source in self.ordered():
                found, _ = lookup(source(), path[:depth])
                if found:
                    return source.where(path)  # type: ignore[attr-defined,no-any-return]
        return ".".join(path), f"the config file {self.config_file.path}"

    def from_env_file(self, path: tuple[str, ...]) -> bool:
        """Whether the value at ``path`` came from the env file (no higher source sets it)."""
        for source in self.ordered():
            if lookup(source(), path)[0]:
                return source is self.env_file
        return False
