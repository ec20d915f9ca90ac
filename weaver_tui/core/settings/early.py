"""The three settings the app's first frame needs, read before pydantic-settings is imported.

Importing pydantic and pydantic-settings and building :class:`~weaver_tui.core.settings.config.Settings`
costs about 0.2 s, as much as the rest of the first frame beyond Textual. The first frame needs
only the theme (so it paints in the right colours), the data folder (to open the store) and the
default profile (for a new conversation). :func:`peek_settings` reads those three from the same
sources, in the same order of precedence, as ``load_settings``: the command-line options,
``WEAVER_*`` variables (any case, empty ones ignored; nested or flat names), the env file the
user named (never a ``.env`` they did not name), the YAML config file, the defaults. It converts nothing and validates nothing: the app validates every setting with
pydantic-settings right after the first paint (:class:`PendingSettings`), and a bad value still
ends as one sentence and exit code 2. An unreadable or invalid YAML file stops the launch at once.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir, user_data_dir

from agents.profile_registry import DEFAULT_PROFILE
from weaver_tui.core.settings.files import choose_env_file, read_env_file, read_yaml_config
from weaver_tui.core.settings.names import lookup, nest_flat_names, nested_variables

APP_NAME = "weaver-tui"
DEFAULT_THEME_SETTING = "weaver-dark"


def default_config_file() -> Path:
    """``WEAVER_CONFIG`` if set, else ``config.yaml`` in the user config folder."""
    named = os.environ.get("WEAVER_CONFIG")
    if named:
        return Path(named).expanduser()
    return Path(user_config_dir(APP_NAME, appauthor=False)) / "config.yaml"


def default_data_dir() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False))


@dataclass(frozen=True)
class EarlySettings:
    """What the first frame is drawn from; every value is the one ``load_settings`` will give
    when the settings are valid."""

    theme: str
    data_dir: Path
    default_profile: str
    storage_url: str | None = None
    """``storage.url``: a PostgreSQL server, or ``None`` for the SQLite file in ``data_dir``."""


def peek_settings(
    *,
    config_file: Path | str | None = None,
    env_file: Path | str | None = None,
    require_config: bool = False,
    **overrides: Any,
) -> EarlySettings:
    """The first frame's settings, without pydantic (see the module docstring).

    Raises ``ConfigError`` (one line naming the file) when the YAML file or the named env file
    cannot be read, or ``--config`` names no file.
    """
    path = Path(config_file).expanduser() if config_file else default_config_file()
    config_data = read_yaml_config(path, None, required=require_config)
    env_values = read_env_file(choose_env_file(env_file, config_data))
    sources: list[Mapping[str, Any]] = [
        nest_flat_names({key: value for key, value in overrides.items() if value is not None})[0],
        nested_variables(os.environ),
        nested_variables(env_values),
        nest_flat_names(config_data)[0],
    ]

    def value(*path: str) -> Any:
        for source in sources:
            found, given = lookup(source, path)
            if found and given is not None:
                return given
        return None

    data_dir = value("storage", "data_dir")
    return EarlySettings(
        theme=str(value("ui", "theme") or DEFAULT_THEME_SETTING),
        data_dir=Path(str(data_dir)).expanduser() if data_dir is not None else default_data_dir(),
        default_profile=str(value("ui", "default_profile") or DEFAULT_PROFILE),
        storage_url=str(value("storage", "url")).strip() or None
        if value("storage", "url")
        else None,
    )
