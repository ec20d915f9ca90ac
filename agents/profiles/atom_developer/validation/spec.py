"""The YAML spec an atom is checked against at level 3: its pattern and how it must match.

A spec is a mapping holding a string ``pattern`` at its top level or one level down (for
example ``item_spec: {pattern: ...}``), with optional ``kind``, ``regex_mode`` and
``default_match`` beside it. Without ``kind`` the kind follows from the pattern, by the same
precedence ``validate_logic`` applies: alternatives (``|``), then ``regex:``, then a wildcard
(``*``), else the default comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped]

MAX_SPEC_BYTES = 64 * 1024
KINDS = ("alternatives", "regex", "wildcard", "default")
REGEX_MODES = ("match", "search")
DEFAULT_MATCHES = ("contains", "exact")


@dataclass(frozen=True, slots=True)
class AtomSpec:
    """The parts of a spec level 3 reads."""

    pattern: str
    kind: str
    regex_mode: str = "search"
    default_match: str = "contains"


def kind_of(pattern: str) -> str:
    """The kind of match ``pattern`` asks for, by the contract's precedence."""
    if "|" in pattern:
        return "alternatives"
    if pattern.startswith("regex:"):
        return "regex"
    if "*" in pattern:
        return "wildcard"
    return "default"


def _holder(data: dict[Any, Any]) -> dict[Any, Any] | None:
    """The mapping that holds the pattern: the spec itself or one of its values."""
    if isinstance(data.get("pattern"), str):
        return data
    for value in data.values():
        if isinstance(value, dict) and isinstance(value.get("pattern"), str):
            return value
    return None


def _regex_errors(pattern: str) -> list[str]:
    """Why the pattern's ``regex:`` parts (alone or among alternatives) do not compile."""
    errors = []
    for part in pattern.split("|") if "|" in pattern else [pattern]:
        if part.startswith("regex:"):
            try:
                re.compile(part[len("regex:") :])
            except re.error as exc:
                errors.append(f"the spec's regex {part[6:]!r} does not compile: {exc}")
    return errors


def _choice(holder: dict[Any, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = holder.get(key, default)
    if value not in choices:
        raise ValueError(f"the spec's {key} {value!r} is not one of {', '.join(choices)}")
    return str(value)


def read_spec(text: str) -> tuple[AtomSpec | None, list[str]]:
    """The spec in ``text``, or ``None`` and the reasons it cannot be used."""
    if len(text.encode("utf-8")) > MAX_SPEC_BYTES:
        return None, [f"the YAML spec is larger than {MAX_SPEC_BYTES // 1024} KiB"]
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        return None, [f"the YAML spec does not parse: {where}{exc.problem or exc}"]
    except (yaml.YAMLError, RecursionError) as exc:
        return None, [f"the YAML spec does not parse: {exc}"]
    if not isinstance(data, dict):
        return None, ["the YAML spec must be a mapping with a pattern"]
    holder = _holder(data)
    if holder is None:
        return None, ["the spec has no pattern (a string 'pattern' at the top or one level down)"]
    pattern = str(holder["pattern"])
    try:
        kind = _choice(holder, "kind", KINDS, kind_of(pattern))
        regex_mode = _choice(holder, "regex_mode", REGEX_MODES, "search")
        default_match = _choice(holder, "default_match", DEFAULT_MATCHES, "contains")
    except ValueError as exc:
        return None, [str(exc)]
    errors = _regex_errors(pattern)
    if errors:
        return None, errors
    return AtomSpec(pattern, kind, regex_mode, default_match), []
