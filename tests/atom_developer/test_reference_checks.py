"""validate_logic is judged against the contract's reference implementation: on calls
generated afresh for each validation (level 2) and on every sample line with the spec's
pattern (level 3), so code that answers only the fixed cases, or reports the right kind
with the wrong match, is never valid."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer.stub import STUB_CODE
from agents.profiles.atom_developer.validation import SandboxLimits, validate
from agents.profiles.atom_developer.validation.contract import item_errors
from agents.profiles.atom_developer.validation.reference import logic_calls
from agents.profiles.atom_developer.validation.spec import kind_of
from tests.atom_developer.conftest import atom_file

SPEC = "item_spec:\n  pattern: 'regex:(?i)error'\n  regex_mode: search\n"
SAMPLE = "Error 1 on boot\nall fine\nERROR 500 disk full\n"
FIXED_TEXTS = '("disk Error 500", "Error 500 disk", "status b", "disk", "", "Error", "a|b", "b")'


def _module(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(compile(code, "<atoms>", "exec"), namespace)  # trusted test fixtures, not drafts
    return namespace


REFERENCE = _module(STUB_CODE)["validate_logic"]


def _answers(validate_logic: Any, calls: list[dict[str, Any]]) -> list[tuple[bool, str]]:
    results = [validate_logic(*call["args"], **call["kwargs"]) for call in calls]
    return [(result["is_match"], result["kind"]) for result in results]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_correct_atoms_agree_with_the_reference_on_every_generated_call(seed: int) -> None:
    """The generator asks only what the contract settles: a correct implementation written
    differently from the reference (fnmatch for wildcards, no stripping of alternatives)
    agrees with it on every call of any seed, so a correct draft is never failed."""
    calls = logic_calls(random.Random(seed))
    good = _module(atom_file("good"))["validate_logic"]
    assert _answers(good, calls) == _answers(REFERENCE, calls)


def test_generated_calls_cover_every_kind_option_and_outcome() -> None:
    calls = [call for seed in range(40) for call in logic_calls(random.Random(seed))]
    kinds = Counter(kind_of(call["args"][1]) for call in calls)
    assert set(kinds) == {"alternatives", "regex", "wildcard", "default"}
    outcomes = Counter(_answers(REFERENCE, calls))
    assert {match for match, _ in outcomes} == {True, False}
    assert {call["kwargs"]["default_match"] for call in calls} == {"contains", "exact"}
    assert {call["kwargs"]["regex_mode"] for call in calls} == {"search", "match"}


def test_each_validation_draws_new_calls() -> None:
    assert logic_calls(random.Random(1)) != logic_calls(random.Random(2))


def _tuned(good: str) -> str:
    """The good atoms, with a default match right only on the fixed cases' texts."""
    old = 'text == pattern if default_match == "exact" else pattern in text'
    assert old in good
    new = f'text == pattern if default_match == "exact" else (pattern in text and text in {FIXED_TEXTS})'
    return good.replace(old, new, 1)


def test_code_tuned_to_the_fixed_cases_fails_level_2(good_atoms: str) -> None:
    """Valid before generated calls: every fixed case passes (the texts are theirs)."""
    tuned = _tuned(good_atoms)
    report = validate(tuned, SPEC, SAMPLE, rng=random.Random(7))
    assert report.levels[1].status == "failed", report.render()
    assert any("reference answers is_match=True" in error for error in report.levels[1].errors)
    assert not report.valid


def test_the_right_kind_with_the_wrong_match_fails_level_3(good_atoms: str) -> None:
    """Each fixed case still passes; only the spec's own pattern is answered wrongly."""
    old = 'found = re.match(expression, text) if regex_mode == "match" else re.search(expression, text)'
    assert old in good_atoms
    wrong = good_atoms.replace(
        old, f'{old}\n        found = None if expression == "(?i)error" else found', 1
    )
    report = validate(wrong, SPEC, SAMPLE, rng=random.Random(3))
    assert report.levels[2].status == "failed", report.render()
    errors = report.levels[2].errors
    assert any("matches line 1" in error and "is_match=False" in error for error in errors)
    assert any("matches line 3" in error for error in errors)
    assert not any("line 2" in error for error in errors)  # "all fine" does not match
    assert not report.valid


CHEAT = """
def validate_logic(
    text: str,
    pattern: str,
    parsed_fields: dict[str, str] | None = None,
    default_match: str = "contains",
    regex_mode: str = "search",
) -> dict[str, Any]:
    \"\"\"Never evaluates the pattern (the regex calls are never reached).\"\"\"
    if not pattern:
        found = re.match(text, text) if regex_mode == "match" else re.search(text, text)
        return {"is_match": found is not None, "reason": "empty", "kind": "default"}
    return {"is_match": True, "reason": "always", "kind": "regex"}
"""


def test_a_case_the_reference_cannot_answer_is_never_a_pass(good_atoms: str) -> None:
    """The spec's regex backtracks past the CPU limit in the reference's run; code that never
    evaluates it answers at once, but its answer is unchecked, so level 3 fails."""
    head = good_atoms[: good_atoms.index("def _one(")]
    tail = good_atoms[good_atoms.index("def check_existence(") :]
    code = head + CHEAT + "\n\n" + tail
    spec = "pattern: 'regex:(a+)+$'\nregex_mode: search\n"
    sample = "a" * 40 + "!\n"
    limits = SandboxLimits(cpu_seconds=1, wall_seconds=20.0)
    report = validate(code, spec, sample, limits=limits, rng=random.Random(5))
    assert report.levels[2].status == "failed", report.render()
    assert any("could not be made" in error for error in report.levels[2].errors)
    assert not report.valid


def test_an_item_whose_line_number_points_elsewhere_fails_level_2(good_atoms: str) -> None:
    """In range, and its content is in the text, but not on the line it names."""
    old = '"line_number": number,'
    report = validate(good_atoms.replace(old, '"line_number": max(1, number - 1),', 1))
    assert report.levels[1].status == "failed", report.render()
    assert any("is not on line 1" in error for error in report.levels[1].errors)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab \t", max_size=6), min_size=1, max_size=5),
    st.data(),
)
def test_evidence_is_judged_on_the_line_it_names(lines: list[str], data: st.DataObject) -> None:
    """An item passes the line check exactly when its content is found from the line it
    names (over as many lines as the content has)."""
    text = "\n".join(lines) + "\n"
    found_at = data.draw(st.integers(1, len(lines)))
    claimed = data.draw(st.integers(1, len(lines)))
    row = lines[found_at - 1]
    start = data.draw(st.integers(0, len(row)))
    content = row[start : data.draw(st.integers(start, len(row)))]
    item = {
        "value": "v",
        "source_file": "a.log",
        "line_number": claimed,
        "matched_content": content,
        "parsed_fields": {},
    }
    errors = item_errors(item, text, len(lines), "a.log", "(case)")
    assert bool(errors) is (content not in lines[claimed - 1])
