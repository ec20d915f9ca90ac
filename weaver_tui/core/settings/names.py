"""Where each setting lives in the nested settings, and the flat names users already have.

Settings are grouped in sections (``provider``, ``ui``, ``storage``, ``turns``, ``logging``):
``provider: {model: ...}`` in config.yaml, ``WEAVER_PROVIDER__MODEL`` in the environment. The
flat names of earlier versions (``model:``, ``WEAVER_MODEL``, ``provider: openai``) stay valid:
every source renames them to their place before the sources are merged, so a flat name in a
higher source still beats a nested one in a lower source. Within one source the nested name
wins over its flat twin.

No pydantic here: the first frame's peek (:mod:`weaver_tui.core.settings.early`) uses it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ENV_PREFIX = "WEAVER_"
NESTED_DELIMITER = "__"

FLAT_NAMES: dict[str, tuple[str, str]] = {
    "model": ("provider", "model"),
    "base_url": ("provider", "base_url"),
    "api_key": ("provider", "api_key"),
    "temperature": ("provider", "temperature"),
    "http_timeout": ("provider", "http_timeout"),
    "local_servers": ("provider", "local_servers"),
    "theme": ("ui", "theme"),
    "default_profile": ("ui", "default_profile"),
    "data_dir": ("storage", "data_dir"),
    "context_messages": ("turns", "context_messages"),
    "max_tool_rounds": ("turns", "max_tool_rounds"),
    "tool_seconds": ("turns", "tool_seconds"),
    "tool_result_chars": ("turns", "tool_result_chars"),
    "max_message_bytes": ("turns", "max_message_bytes"),
    "auto_summary": ("turns", "auto_summary"),
    "auto_summary_at": ("turns", "auto_summary_at"),
    "log_level": ("logging", "level"),
    "log_redact_content": ("logging", "redact_content"),
}
"""Each flat setting name of earlier versions and the (section, key) it now is."""

SECTIONS = frozenset(section for section, _ in FLAT_NAMES.values())
"""The sections of the settings; an empty one (``ui:`` with nothing under it) is left out."""

PROVIDER_NAME = ("provider", "name")
"""``provider: openai`` (a name, not a section) is the provider section's ``name``."""

REDACT_ALIAS_ENV = "AGENT_LOG_REDACT_CONTENT"
"""Another program's variable for ``logging.redact_content``, below ``WEAVER_*`` names."""


def place_of(name: str) -> tuple[str, ...]:
    """The nested path of a flat name, or the name itself when it is not flat."""
    return FLAT_NAMES.get(name, (name,))


def dotted(path: tuple[str | int, ...]) -> str:
    """``("provider", "model")`` as ``provider.model``, the way the README names it."""
    return ".".join(str(part) for part in path)


def nest_flat_names(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[tuple[str, ...], str]]:
    """``data`` (one source's top-level keys) with flat names moved into their sections, and
    which flat name each moved value had (for messages that name what the user wrote)."""
    nested: dict[str, Any] = {}
    flat_seen: dict[tuple[str, ...], str] = {}
    for key, value in data.items():
        if key in FLAT_NAMES or (key == "provider" and isinstance(value, str)):
            continue
        if key in SECTIONS and value is None:
            continue
        nested[key] = dict(value) if isinstance(value, Mapping) else value
    for key, value in data.items():
        path = (
            PROVIDER_NAME if key == "provider" and isinstance(value, str) else FLAT_NAMES.get(key)
        )
        if path is None:
            continue
        section, inner = path
        existing = nested.setdefault(section, {})
        if not isinstance(existing, dict):
            continue  # ``ui: 3``: validation names the section
        if inner not in existing:
            existing[inner] = value
            flat_seen[path] = key
    return nested, flat_seen


def flat_variable_renames(names: list[str], prefix: str) -> dict[str, str]:
    """For variable names as a source keeps them (lower case, ``weaver_model``), the nested name
    each flat one becomes (``weaver_provider__model``); a nested twin that is set wins."""
    present = set(names)
    renames: dict[str, str] = {}
    for name in names:
        if not name.startswith(prefix):
            continue
        bare = name.removeprefix(prefix)
        path = PROVIDER_NAME if bare == "provider" else FLAT_NAMES.get(bare)
        if path is None:
            continue
        target = prefix + NESTED_DELIMITER.join(path).lower()
        if target not in present:
            renames[name] = target
    return renames


def nested_variables(variables: Mapping[str, str | None]) -> dict[str, Any]:
    """``WEAVER_*`` variables (any case; empty ones left out) as nested settings, flat names
    moved to their place: the first frame's peek reads them this way, unconverted."""
    prefix = ENV_PREFIX.lower()
    lowered = {name.lower(): text for name, text in variables.items() if text}
    renames = flat_variable_renames(list(lowered), prefix)
    found: dict[str, Any] = {}
    for name, text in lowered.items():
        if not name.startswith(prefix):
            continue
        parts = renames.get(name, name).removeprefix(prefix).split(NESTED_DELIMITER)
        target = found
        for part in parts[:-1]:
            inner = target.setdefault(part, {})
            if not isinstance(inner, dict):
                break
            target = inner
        else:
            target[parts[-1]] = text
    return found


def lookup(data: Mapping[str, Any], path: tuple[str | int, ...]) -> tuple[bool, Any]:
    """Whether ``data`` holds a value at ``path``, and the value."""
    current: Any = data
    for part in path:
        if not isinstance(current, Mapping) or part not in current:
            return False, None
        current = current[part]
    return True, current
