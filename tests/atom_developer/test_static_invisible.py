"""Level 1 refuses source that can read differently from what runs.

The class: any character in an atom's source that is not printable, except tabs and line ends:
controls (a raw escape that drives a terminal), bidirectional overrides and isolates (the
"Trojan Source" trick that reorders what a reviewer sees), zero-width and other format
characters, surrogates, private-use and unassigned code points, line and paragraph separators.
The guarantee, held by ``invisible_characters`` in level 1: wherever such a character sits
(comment, string, identifier, between tokens), the code fails level 1 naming its line, and is
never run; the same code without it is unaffected.
"""

from __future__ import annotations

import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.validation import avalidate
from agents.profiles.atom_developer.validation.one_line import printable
from agents.profiles.atom_developer.validation.static_check import SOURCE_CONTROLS, check_static
from tests.atom_developer.conftest import atom_file

GOOD = atom_file("good")
INVISIBLE = st.characters(codec=None, categories=None).filter(
    lambda c: c not in SOURCE_CONTROLS and not printable(c)
)


def _invisible_errors(code: str) -> list[str]:
    return [e for e in check_static(code).errors if "invisible character" in e]


def test_the_good_atoms_hold_no_invisible_character() -> None:
    assert _invisible_errors(GOOD) == []


@settings(max_examples=200, deadline=None)
@given(INVISIBLE, st.integers(0, len(GOOD)))
def test_an_invisible_character_anywhere_fails_level_1_naming_its_line(char: str, at: int) -> None:
    code = GOOD[:at] + char + GOOD[at:]
    line = GOOD[:at].count("\n") + 1
    errors = _invisible_errors(code)
    assert errors == [errors[0]]
    assert errors[0].startswith(f"line {line}: the invisible character U+{ord(char):04X}")


async def test_a_trojan_source_comment_is_never_run() -> None:
    code = GOOD.replace(
        "def check_existence",
        "# \u202e } \u2066if is_admin:\u2069 \u2066 begin admins only\n\ndef check_existence",
    )
    report = await avalidate(code)
    assert report.levels[0].status == "failed"
    assert report.levels[1].status == "skipped"


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["\\D", "\\q", "\\\x1b[2J", "\\N"]))
def test_checking_code_with_invalid_escapes_prints_no_warning(escape: str) -> None:
    code = f'def check_existence(items: list) -> dict:\n    return {{"r": "{escape}"}}\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_static(code)
