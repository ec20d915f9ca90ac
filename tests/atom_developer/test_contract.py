"""Levels 2 and 3: the good atoms keep the contract and agree with their spec; each broken
behaviour and each broken spec is named."""

from __future__ import annotations

import json

import pytest

from agents.profiles.atom_developer.validation import validate

SPEC = "item_spec:\n  pattern: 'regex:(?i)error'\n  regex_mode: search\n"
SAMPLE = "Error 1 on boot\nall fine\nERROR 500 disk full\n"


def broken(good: str, old: str, new: str) -> str:
    """The good atoms with one behaviour broken: ``old`` replaced by ``new``."""
    assert old in good
    return good.replace(old, new, 1)


def test_the_good_atoms_pass_all_three_levels(good_atoms: str) -> None:
    report = validate(good_atoms, SPEC, SAMPLE)
    assert [level.status for level in report.levels] == ["passed"] * 3, report.render()
    assert report.valid
    assert report.errors == []


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"value": str(found.group(1))', '"value": int(found.group(1))', "Atom A: 'value' is int, must be str (extract_context('Error 123"),
        ('"matched_content": found.group(0),', "", "Atom A: missing key 'matched_content'"),
        ('"line_number": number,', '"line_number": number + 10,', "Atom A: 'line_number' 11 is out of range 1..2"),
        ("    return items\n", "    return (item for item in items)\n", "Atom A: returns generator, must return a list"),
        ('if regex_mode == "match"', 'if regex_mode == "search"', "regex_mode='match' must use re.match"),
        ('if "|" in pattern:', 'if "|" in pattern and not pattern.startswith("regex:"):', "they come before 'regex:'"),
        ("fnmatchcase(text, pattern)", 'fnmatchcase(text, "*" + pattern + "*")', "a '*' wildcard must match the whole text"),
        ('text == pattern if default_match == "exact" else pattern in text', 'pattern in text if default_match == "exact" else text == pattern', "default_match='contains' looks for the pattern"),
        ('    if "|" in pattern:', '    if parsed_fields is not None:\n        parsed_fields["seen"] = "yes"\n    if "|" in pattern:', "Atom B: validate_logic mutated parsed_fields"),
        ('"evidence": list(items),', '"evidence": [],', "Atom C: 'evidence' must be the items passed in"),
    ],
)  # fmt: skip
def test_each_broken_behaviour_fails_level_2_with_its_message(
    good_atoms: str, old: str, new: str, message: str
) -> None:
    report = validate(broken(good_atoms, old, new))
    assert report.levels[0].status == "passed", report.render()
    assert report.levels[1].status == "failed"
    assert any(message in error for error in report.levels[1].errors), report.render()
    assert not report.valid


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pattern: [unclosed\n", "the YAML spec does not parse: line 2, column 1"),
        ("kind: regex\nregex_mode: search\n", "the spec has no pattern"),
        ("pattern: 'regex:(['\n", "the spec's regex '([' does not compile"),
        ("kind: wildcard\npattern: 'regex:^E'\n", "Consistency Error: the spec declares a wildcard pattern, but validate_logic reports kind 'regex' for line 1"),
    ],
)  # fmt: skip
def test_spec_errors_fail_level_3_only(good_atoms: str, spec: str, message: str) -> None:
    report = validate(good_atoms, spec, SAMPLE)
    assert [level.status for level in report.levels] == ["passed", "passed", "failed"]
    assert any(message in error for error in report.levels[2].errors), report.render()


def test_extract_context_must_find_something_in_the_sample(good_atoms: str) -> None:
    report = validate(good_atoms, SPEC, "all fine\nnothing here\nok\n")
    assert "extract_context finds nothing in the 3 sample lines" in report.levels[2].errors


def test_without_a_spec_level_3_is_skipped(good_atoms: str) -> None:
    report = validate(good_atoms)
    assert report.levels[2].status == "skipped"
    assert report.levels[2].note == "no YAML spec given"
    assert report.valid


def test_a_spec_needs_validate_logic(good_atoms: str) -> None:
    only_c = (
        good_atoms.split("def extract_context")[0]
        + "def check_existence"
        + (good_atoms.split("def check_existence")[1])
    )
    report = validate(only_c, SPEC)
    assert report.atoms == ("check_existence",)
    assert report.levels[2].errors == ("the spec is checked through validate_logic; define it",)


def test_the_report_is_json_and_renders_one_line_per_level(good_atoms: str) -> None:
    report = validate(broken(good_atoms, '"evidence": list(items),', '"evidence": [],'))
    data = json.loads(json.dumps(report.as_dict()))
    assert data["valid"] is False
    assert data["errors"] == report.errors
    assert [level["status"] for level in data["levels"]] == ["passed", "failed", "skipped"]
    lines = report.render().splitlines()
    assert lines[0].startswith("- Level 1 · AST: passed (")
    assert lines[1].startswith("- Level 2 · contract run: failed (")
    assert lines[2].startswith("  - Atom C:")
    assert lines[-1] == "- Level 3 · twin consistency: skipped (no YAML spec given)"
