"""A known-good set of the three atoms: error codes in log lines."""

import fnmatch
import re
from typing import Any

CODE = re.compile(r"(?i)\berror\b\D*(\d+)")


def extract_context(text: str, source_file: str) -> list[dict[str, Any]]:
    """Every line that names an error code, with the code as the value."""
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        found = CODE.search(line)
        if found:
            items.append(
                {
                    "value": str(found.group(1)),
                    "source_file": source_file,
                    "line_number": number,
                    "matched_content": found.group(0),
                    "parsed_fields": {"code": str(found.group(1))},
                }
            )
    return items


def _one(text: str, pattern: str, default_match: str, regex_mode: str) -> bool:
    if pattern.startswith("regex:"):
        expression = pattern[len("regex:") :]
        found = re.match(expression, text) if regex_mode == "match" else re.search(expression, text)
        return found is not None
    if "*" in pattern:
        return fnmatch.fnmatchcase(text, pattern)
    return text == pattern if default_match == "exact" else pattern in text


def validate_logic(
    text: str,
    pattern: str,
    parsed_fields: dict[str, str] | None = None,
    default_match: str = "contains",
    regex_mode: str = "search",
) -> dict[str, Any]:
    """Whether ``text`` matches ``pattern``, by the contract's precedence."""
    if "|" in pattern:
        hit = any(_one(text, part, default_match, regex_mode) for part in pattern.split("|"))
        kind = "alternatives"
    elif pattern.startswith("regex:"):
        hit, kind = _one(text, pattern, default_match, regex_mode), "regex"
    elif "*" in pattern:
        hit, kind = _one(text, pattern, default_match, regex_mode), "wildcard"
    else:
        hit, kind = _one(text, pattern, default_match, regex_mode), "default"
    return {"is_match": hit, "reason": f"{kind} pattern {pattern!r}", "kind": kind}


def check_existence(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether anything was found, passing the items through as evidence."""
    return {
        "is_match": bool(items),
        "reason": f"{len(items)} items found",
        "evidence": list(items),
    }
