"""Reading the files settings come from: the YAML config file and the env file the user named.

No pydantic here (the first frame's peek reads these files too). Every failure is a
``ConfigError`` whose one line names the file (and the key, when there is one).

Only files the user named are read: the YAML config file (``--config``, ``WEAVER_CONFIG`` or
the user config folder's ``config.yaml``) and a dotenv file named by ``--env-file``,
``WEAVER_ENV_FILE`` or ``env_file`` in that config file. A ``.env`` in the folder being worked
on is never read on its own: a repository the user did not write must not choose the provider
their key is sent to. Both files must be regular files of bounded size (a FIFO or a device
would block or never end).
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import Any

from agents.errors import ConfigError

MAX_SETTINGS_FILE_BYTES = 1024 * 1024
"""A config or env file larger than this is refused (settings fit in a few kilobytes)."""

ENV_FILE_SETTING = "env_file"
ENV_FILE_VARIABLE = "WEAVER_ENV_FILE"


def read_settings_file(path: Path, what: str) -> str:
    """The text of the regular file at ``path`` (``what`` names it in messages: "config file").

    Raises ``FileNotFoundError`` when it does not exist and ``ConfigError`` when it is not a
    regular file, is larger than ``MAX_SETTINGS_FILE_BYTES`` or cannot be read as UTF-8. The
    file is opened without blocking, so a FIFO is refused instead of waited on.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise ConfigError(f"The {what} {path} is a folder, not a file.") from None
    except OSError as exc:
        raise ConfigError(f"Cannot read the {what} {path}: {exc.strerror or exc}.") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ConfigError(f"The {what} {path} is a folder, not a file.")
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(
                f"The {what} {path} is not a regular file (a pipe, socket or device); "
                "point to a plain file."
            )
        if info.st_size > MAX_SETTINGS_FILE_BYTES:
            raise ConfigError(
                f"The {what} {path} is {info.st_size} bytes, more than the "
                f"{MAX_SETTINGS_FILE_BYTES} a settings file may hold; check the path."
            )
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_SETTINGS_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"Cannot read the {what} {path}: {exc.strerror or exc}.") from None
    finally:
        os.close(fd)
    if len(data) > MAX_SETTINGS_FILE_BYTES:
        raise ConfigError(
            f"The {what} {path} holds more than the {MAX_SETTINGS_FILE_BYTES} bytes a settings "
            "file may hold; check the path."
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"Cannot read the {what} {path}: it is not UTF-8 text.") from None


def read_yaml_config(
    path: Path, known_keys: set[str] | None, *, required: bool = False
) -> dict[str, Any]:
    """The settings in the YAML file at ``path`` ({} when it does not exist and is not
    ``required``: the user named it with ``--config``).

    Raises ``ConfigError`` when the file cannot be read, is not valid YAML, is not a mapping,
    or names a setting not in ``known_keys`` (a typo would otherwise be silently ignored;
    ``None`` skips that check, for the first frame's peek, which the full load follows).
    """
    try:
        text = read_settings_file(path, "config file")
    except FileNotFoundError:
        if required:
            raise ConfigError(
                f"The config file {path} does not exist; check the --config path."
            ) from None
        return {}
    # here, not at the top: no config file (the common first launch) needs no YAML
    import yaml  # type: ignore[import-untyped]

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"The config file {path} is not valid YAML{where}: {problem}.") from None
    except RecursionError:
        raise ConfigError(
            f"The config file {path} nests lists or mappings too deeply to be settings; "
            "it should hold 'setting: value' lines."
        ) from None
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


def choose_env_file(given: Path | str | None, config_data: dict[str, Any]) -> Path | None:
    """The dotenv file the user asked for: ``--env-file``, else ``WEAVER_ENV_FILE``, else
    ``env_file`` in their config file; None (no dotenv file at all) when they named none."""
    named = given or os.environ.get(ENV_FILE_VARIABLE) or config_data.get(ENV_FILE_SETTING)
    if named is None or named == "":
        return None
    if not isinstance(named, str | os.PathLike):
        raise ConfigError(f"The setting {ENV_FILE_SETTING} must be a file path, not {named!r}.")
    return Path(named).expanduser()


def read_env_file(path: Path | None) -> dict[str, str]:
    """The variables the dotenv file at ``path`` sets (empty values left out); {} for None.

    The user named the file, so a missing one is a ``ConfigError`` like any unreadable one.
    """
    if path is None:
        return {}
    try:
        text = read_settings_file(path, "env file")
    except FileNotFoundError:
        raise ConfigError(
            f"The env file {path} does not exist; check --env-file, {ENV_FILE_VARIABLE} or "
            f"{ENV_FILE_SETTING} in config.yaml."
        ) from None
    from dotenv import dotenv_values

    values = dotenv_values(stream=io.StringIO(text))
    return {name: value for name, value in values.items() if value}
