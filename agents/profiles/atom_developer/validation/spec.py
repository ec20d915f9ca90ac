"""The YAML spec an atom is checked against at level 3: its pattern and how it must match.

A spec is a mapping holding a string ``pattern`` at its top level or one level down (for
example ``item_spec: {pattern: ...}``), with optional ``kind``, ``regex_mode`` and
``default_match`` beside it. Without ``kind`` the kind follows from the pattern, by the same
precedence ``validate_logic`` applies: alternatives (``|``), then ``regex:``, then a wildcard
(``*``), else the default comparison.

A spec is read one way only or refused, with one sentence: a mapping that gives the same key
twice (readers differ on which one counts, and the one shown first need not be the one
checked) and a spec with more than one pattern, unless they are copies of one (only one
would be checked) are refused, as are text that is no valid Unicode and text holding a
character that is not printable (a spec, like the code, must read as what is checked).
YAML's merge key (``<<: *base``) still lets a key override a merged one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped]
from yaml.constructor import ConstructorError  # type: ignore[import-untyped]
from yaml.nodes import MappingNode, ScalarNode  # type: ignore[import-untyped]

from agents.profiles.atom_developer.validation.static_check import invisible_characters

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


_MERGE = "tag:yaml.org,2002:merge"


class _OneReading(yaml.SafeLoader):  # type: ignore[misc]
    """``yaml.SafeLoader`` that refuses a mapping giving one key twice."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag == _MERGE:
                continue
            key = self.construct_object(key_node)
            if key in seen:
                raise ConstructorError(
                    None, None, f"the key {key!r} is given twice in one mapping; keep one",
                    key_node.start_mark,
                )  # fmt: skip
            seen.add(key)
        return super().construct_mapping(node, deep)


def _holders(data: dict[Any, Any]) -> list[tuple[str, dict[Any, Any]]]:
    """The mappings that hold a pattern (the spec itself, or its values), each with where."""
    found = [("the top", data)] if isinstance(data.get("pattern"), str) else []
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(value.get("pattern"), str):
            found.append((repr(key), value))
    return found


def _regex_errors(pattern: str) -> list[str]:
    """Why the pattern's ``regex:`` parts (alone or among alternatives) do not compile, one
    sentence each, whatever stops the compiler: a syntax error, a repetition count past its
    limit (``OverflowError``), groups nested past the parser's recursion, memory."""
    errors = []
    for part in pattern.split("|") if "|" in pattern else [pattern]:
        if part.startswith("regex:"):
            shown = repr(part[6:]) if len(part) <= 86 else repr(part[6:86]) + "…"
            try:
                re.compile(part[len("regex:") :])
            except re.error as exc:
                errors.append(f"the spec's regex {shown} does not compile: {exc}")
            except (OverflowError, ValueError) as exc:
                errors.append(f"the spec's regex {shown} does not compile: {exc}")
            except (RecursionError, MemoryError):
                errors.append(f"the spec's regex {shown} is nested too deeply to compile")
    return errors


def _choice(holder: dict[Any, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = holder.get(key, default)
    if value not in choices:
        raise ValueError(f"the spec's {key} {value!r} is not one of {', '.join(choices)}")
    return str(value)


def _reading(holder: dict[Any, Any]) -> str:
    """What level 3 reads of a pattern's mapping, to tell different patterns from copies."""
    return repr([holder.get(key) for key in ("pattern", "kind", "regex_mode", "default_match")])


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def read_spec(text: str) -> tuple[AtomSpec | None, list[str]]:
    """The spec in ``text``, or ``None`` and the reasons it cannot be used (one sentence
    each); never an exception, whatever ``text`` holds."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return None, ["the YAML spec holds a character that is not valid Unicode; write it again"]
    if size > MAX_SPEC_BYTES:
        return None, [f"the YAML spec is larger than {MAX_SPEC_BYTES // 1024} KiB"]
    invisible = invisible_characters(text)
    if invisible:
        return None, [
            f"the YAML spec holds the invisible character U+{ord(char):04X} at line {number}"
            " (a spec must read as what is checked); write plain text"
            for number, char in invisible
        ]
    try:
        data = yaml.load(text, Loader=_OneReading)  # a SafeLoader: plain data only
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        return None, [f"the YAML spec does not parse: {where}{exc.problem or _first_line(exc)}"]
    except RecursionError:
        return None, ["the YAML spec nests too deeply to read; a spec is a mapping a few levels deep"]  # fmt: skip
    except yaml.YAMLError as exc:
        return None, [f"the YAML spec does not parse: {_first_line(exc)}"]
    if not isinstance(data, dict):
        return None, ["the YAML spec must be a mapping with a pattern"]
    holders = _holders(data)
    if not holders:
        return None, ["the spec has no pattern (a string 'pattern' at the top or one level down)"]
    if len({_reading(holder) for _, holder in holders}) > 1:
        places = ", ".join(where for where, _ in holders)
        return None, [f"the spec holds {len(holders)} patterns ({places}); a spec gives one"]
    holder = holders[0][1]
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
