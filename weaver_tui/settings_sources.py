"""Reading the YAML config file, and telling the user where a bad setting came from.

Split from ``settings.py`` so that module stays the list of settings. Every failure here is a
``ConfigError`` whose one line names the file (and the key, when there is one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from agents.errors import ConfigError


def read_yaml_config(path: Path, known_keys: set[str] | None) -> dict[str, Any]:
    """The settings in the YAML file at ``path`` ({} when it does not exist).

    Raises ``ConfigError`` when the file cannot be read, is not valid YAML, is not a mapping,
    or names a setting not in ``known_keys`` (a typo would otherwise be silently ignored;
    ``None`` skips that check, for the first frame's peek, which the full load follows).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigError(f"The config file {path} is a folder, not a YAML file.") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise ConfigError(f"Cannot read the config file {path}: {reason}.") from None
    import yaml  # here, not at the top: no config file (the common first launch) needs no YAML

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"The config file {path} is not valid YAML{where}: {problem}.") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"The config file {path} must hold 'setting: value' lines, not a {type(data).__name__}."
        )
    for key in data:
        if known_keys is not None and str(key).lower() not in known_keys:
            raise ConfigError(
                f"Unknown setting {key!r} in {path}; check its spelling against the README."
            )
    return {str(key).lower(): value for key, value in data.items()}


def _env_names(key: str, prefix: str) -> list[str]:
    return [f"{prefix}{key}".upper()]


def _in_environ(names: list[str], nested_prefix: str) -> str | None:
    upper = {name.upper(): name for name in os.environ}
    for name in names:
        if name in upper:
            return upper[name]
    for name in upper:
        if name.startswith(nested_prefix):
            return upper[name]
    return None


def _in_dotenv(env_file: Path | None, key: str, prefix: str) -> bool:
    if env_file is None or not env_file.is_file():
        return False
    from dotenv import dotenv_values

    try:
        values = dotenv_values(env_file)
    except (OSError, UnicodeDecodeError):
        return False
    wanted = f"{prefix}{key}".upper()
    return any(name.upper() == wanted or name.upper().startswith(wanted + "__") for name in values)


def describe_origin(
    key: str,
    given: dict[str, Any],
    env_file: Path | None,
    config_file: Path,
    prefix: str,
    redact_alias_env: str,
) -> str:
    """Where the value of ``key`` came from, highest-precedence source first, in words."""
    if key in given:
        return "the command-line options"
    env_name = _in_environ(_env_names(key, prefix), f"{prefix}{key}__".upper())
    if env_name is not None:
        return f"the environment variable {env_name}"
    if key == "log_redact_content" and os.environ.get(redact_alias_env):
        return f"the environment variable {redact_alias_env}"
    if _in_dotenv(env_file, key, prefix):
        return f"the .env file {env_file.absolute()}"
    return f"the config file {config_file}"
