"""What a reply says it established: its verdict line and the name its files are saved under.

Both read only the validation report (and whether the answer is the stub), never the model's
words: "valid" is said only of code every level passed, and a level that did not run is
named as skipped; code the sandbox never ran is "not checked"; a stub is "safe" only when its
own check passed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_NAME = re.compile(r"^\s*name:\s*['\"]?([A-Za-z_][\w-]{0,60})", re.M)
STUB_NAME = "safe_stub"


def _skipped(report: Mapping[str, Any]) -> list[str]:
    levels = report.get("levels") or []
    return [
        f"level {level.get('level')} was skipped ({level.get('note') or 'no reason given'})"
        for level in levels
        if isinstance(level, Mapping) and level.get("status") == "skipped"
    ]


NO_SAMPLE = (
    "No sample was given, so extract_context was tried only on the contract's own lines,"
    " not on your logs."
)


def sample_scope(sample: str, sample_cut: str) -> str:
    """What of the user's sample a verdict covers, as a sentence: none of it (no sample was
    given), part of it (``sample_cut``), or "" when the whole sample was checked."""
    return NO_SAMPLE if not sample.strip() else sample_cut


def verdict_head(report: Mapping[str, Any], stub: bool, fixes: int, by_user: bool) -> str:
    """The reply's first line: what the checks in ``report`` established, no more."""
    valid = bool(report.get("valid"))
    unchecked = str(report.get("unchecked") or "")
    if unchecked:
        return (
            f"**Not checked.** This code was never run: {unchecked}. It is shown as written;"
            " do not rely on it before it is checked."
        )
    if stub and not valid:
        return (
            f"**Stub, not valid.** No draft passed validation after {fixes} fixes, and the"
            " stub's own check failed too (see the report)."
        )
    if stub:
        return (
            f"**Safe stub.** No draft passed validation after {fixes} fixes, so this is a "
            "stub: `extract_context` finds nothing yet. Replace it before relying on it."
        )
    if not valid:
        return "**Not valid.**"
    how = "your code" if by_user else "the draft"
    when = f" after {fixes} fix{'es' if fixes != 1 else ''}" if fixes else " at once"
    skipped = _skipped(report)
    if skipped:
        return f"**Valid atom**: {how} passed every check that ran{when}; {'; '.join(skipped)}."
    return f"**Valid atom**: {how} passed every check{when}."


def artifact_name(spec: str, stub: bool, valid: bool, unchecked: bool) -> str:
    """The file name (without suffix) the reply's code and spec are saved under, which says
    what the checks established: ``safe_stub`` only for the stub that passed its check (a
    spec cannot take that name), ``…_unchecked`` for code that was never run, ``…_not_valid``
    for code that failed; otherwise the spec's ``name``."""
    found = _NAME.search(spec)
    named = found.group(1) if found else "atom"
    if named.lower().startswith(STUB_NAME):
        named = "atom"
    base = (STUB_NAME if valid and not unchecked else "stub") if stub else named
    if unchecked:
        return f"{base}_unchecked"
    return base if valid else f"{base}_not_valid"
