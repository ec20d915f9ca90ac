"""The atoms' contract cases (level 2) and the spec's consistency cases (level 3), and how
their results are judged.

Each case is one call run in the sandbox and a judge that reads its decoded result (and its
arguments as they were after the call, to see mutation) and returns error sentences naming the
atom, the call and what was wrong. Every case of both levels runs in one sandbox process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.profiles.atom_developer.validation.sandbox import CallOutcome, Opaque, call_text
from agents.profiles.atom_developer.validation.spec import KINDS, AtomSpec

Judge = Callable[[CallOutcome], list[str]]
ReferenceJudge = Callable[[CallOutcome, CallOutcome], list[str]]
"""Judges a call's outcome against the reference implementation's outcome of the same call."""
ITEM_KEYS = ("value", "source_file", "line_number", "matched_content", "parsed_fields")
MAX_SAMPLE_LINES = 50
MAX_ERRORS_PER_CASE = 5
CONTRACT_TEXT = "Error 123\nERROR code=500 at 10:00:01\n"
EVIDENCE = {
    "value": "500",
    "source_file": "a.log",
    "line_number": 1,
    "matched_content": "Error 500",
    "parsed_fields": {},
}


@dataclass(frozen=True, slots=True)
class Case:
    """One call (``{"atom", "args", "kwargs"}``), the level it belongs to, and its judge."""

    level: int
    call: dict[str, Any]
    judge: Judge
    against_reference: ReferenceJudge | None = None
    """Set when the call is also made on the reference implementation (``reference.py``)
    and the two outcomes are judged together, after ``judge``."""

    @property
    def text(self) -> str:
        return call_text(self.call)


def _call(atom: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    return {"atom": atom, "args": list(args), "kwargs": kwargs}


def type_name(value: Any) -> str:
    return value.type if isinstance(value, Opaque) else type(value).__name__


def _items_errors(value: Any, text: str, source_file: str, call: str) -> list[str]:
    """What is wrong with extract_context's result on ``text``, item by item."""
    if not isinstance(value, list):
        return [f"Atom A: returns {type_name(value)}, must return a list ({call})"]
    errors: list[str] = []
    lines = len(text.splitlines())
    for number, item in enumerate(value, 1):
        errors += item_errors(item, text, lines, source_file, f"({call}, item {number})")
        if len(errors) >= MAX_ERRORS_PER_CASE:
            break
    return errors[:MAX_ERRORS_PER_CASE]


def _lines_from(text: str, line: int, content: str) -> str:
    """The text from line ``line`` (numbered from 1) over as many lines as ``content`` has:
    where an item's evidence says it was found."""
    kept = text.splitlines(keepends=True)
    return "".join(kept[line - 1 : line - 1 + max(1, len(content.splitlines()))])


def item_errors(item: Any, text: str, lines: int, source_file: str, where: str) -> list[str]:
    """What is wrong with one item of extract_context's result (``where`` names it)."""
    if not isinstance(item, dict):
        return [f"Atom A: the item is {type_name(item)}, must be a dict {where}"]
    missing = [key for key in ITEM_KEYS if key not in item]
    if missing:
        return [f"Atom A: missing key {', '.join(map(repr, missing))} {where}"]
    errors: list[str] = []
    for key in ("value", "matched_content"):
        if not isinstance(item[key], str):
            errors.append(f"Atom A: '{key}' is {type_name(item[key])}, must be str {where}")
    if item["source_file"] != source_file:
        errors.append(f"Atom A: 'source_file' is {item['source_file']!r}, must be {source_file!r} {where}")  # fmt: skip
    line = item["line_number"]
    if not isinstance(line, int) or isinstance(line, bool):
        errors.append(f"Atom A: 'line_number' is {type_name(line)}, must be int {where}")
    elif not 1 <= line <= lines:
        errors.append(f"Atom A: 'line_number' {line} is out of range 1..{lines} {where}")
    content = item["matched_content"]
    if isinstance(content, str) and content not in text:
        errors.append(f"Atom A: 'matched_content' is not found in the text {where}")
    elif (
        isinstance(content, str)
        and isinstance(line, int)
        and 1 <= line <= lines
        and content not in _lines_from(text, line, content)
    ):
        errors.append(f"Atom A: 'matched_content' is not on line {line}, its 'line_number' {where}")  # fmt: skip
    fields = item["parsed_fields"]
    if not isinstance(fields, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in fields.items()
    ):
        errors.append(f"Atom A: 'parsed_fields' must be a dict of str to str {where}")
    return errors


def _extract_cases(sample: str) -> list[Case]:
    def empty(call: dict[str, Any]) -> Case:
        def judge(outcome: CallOutcome) -> list[str]:
            if outcome.value == [] and isinstance(outcome.value, list):
                return []
            return [f"Atom A: must return [] for text without content, got {type_name(outcome.value)} {outcome.value!r:.60} ({call_text(call)})"]  # fmt: skip

        return Case(2, call, judge)

    def items(text: str, source_file: str) -> Case:
        call = _call("extract_context", text, source_file)
        return Case(2, call, lambda o: _items_errors(o.value, text, source_file, call_text(call)))

    cases = [
        empty(_call("extract_context", "", "empty.log")),
        empty(_call("extract_context", "\n   \n", "blank.log")),
        items(CONTRACT_TEXT, "test.log"),
    ]
    if sample:
        cases.append(items(sample, "sample.log"))
    return cases


def _logic_errors(value: Any, call: str, match: bool, kind: str | None, hint: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"Atom B: returns {type_name(value)}, must return a dict with is_match, reason and kind ({call})"]  # fmt: skip
    errors = []
    for key, kind_type in (("is_match", bool), ("reason", str), ("kind", str)):
        if key not in value:
            errors.append(f"Atom B: missing key '{key}' ({call})")
        elif not isinstance(value[key], kind_type):
            errors.append(f"Atom B: '{key}' is {type_name(value[key])}, must be {kind_type.__name__} ({call})")  # fmt: skip
    if errors:
        return errors
    if value["kind"] not in KINDS:
        errors.append(f"Atom B: kind {value['kind']!r} is not one of {', '.join(KINDS)} ({call})")
    if value["is_match"] is not match:
        errors.append(f"Atom B: is_match is {value['is_match']}, must be {match} ({call}: {hint})")
    elif kind is not None and value["kind"] != kind:
        errors.append(f"Atom B: kind is {value['kind']!r}, must be {kind!r} ({call}: {hint})")
    return errors


_MATCH = "regex_mode='match' must use re.match"
_SEARCH = "regex_mode='search' must use re.search"
_ALTERNATIVES = "a pattern with '|' is a list of alternatives, and they come before 'regex:'"
_REGEX_FIRST = "'regex:' comes before the '*' wildcard"
_WILDCARD = "a '*' wildcard must match the whole text"
_CONTAINS = "default_match='contains' looks for the pattern in the text"
_EXACT = "default_match='exact' compares the whole text"
LOGIC_CASES: tuple[tuple[tuple[Any, ...], dict[str, Any], bool, str | None, str], ...] = (
    (("abc", "regex:^a"), {"regex_mode": "match"}, True, "regex", _MATCH),
    (("xabc", "regex:abc"), {"regex_mode": "match"}, False, "regex", _MATCH),
    (("xabc", "regex:abc"), {"regex_mode": "search"}, True, "regex", _SEARCH),
    (("a|b", "a|b"), {}, True, "alternatives", _ALTERNATIVES),
    (("status b", "x|b"), {}, True, "alternatives", _ALTERNATIVES),
    (("c", "x|y"), {}, False, "alternatives", _ALTERNATIVES),
    (("b", "regex:^a|b"), {}, True, "alternatives", _ALTERNATIVES),
    (("aaa", "regex:^a*$"), {}, True, "regex", _REGEX_FIRST),
    (("Error 500 disk", "Error*"), {}, True, "wildcard", _WILDCARD),
    (("Warning 1", "Error*"), {}, False, "wildcard", _WILDCARD),
    (("Error 500 disk", "*500*"), {}, True, "wildcard", _WILDCARD),
    (("disk Error 500", "Error*"), {}, False, "wildcard", _WILDCARD),
    (("disk Error 500", "Error"), {}, True, "default", _CONTAINS),
    (("disk", "Error"), {}, False, "default", _CONTAINS),
    (("disk Error 500", "Error"), {"default_match": "exact"}, False, "default", _EXACT),
    (("Error", "Error"), {"default_match": "exact"}, True, "default", _EXACT),
    (("", "Error"), {}, False, "default", _CONTAINS),
    (("all good", r"regex:\d{3}"), {}, False, "regex", _SEARCH),
)


def _logic_case(
    args: tuple[Any, ...], kwargs: dict[str, Any], match: bool, kind: str | None, hint: str
) -> Case:
    call = _call("validate_logic", *args, **kwargs)
    return Case(2, call, lambda o: _logic_errors(o.value, call_text(call), match, kind, hint))


def _logic_cases() -> list[Case]:
    cases = [_logic_case(*case) for case in LOGIC_CASES]
    fields = {"level": "ERROR"}
    call = _call("validate_logic", "disk Error 500", "Error", parsed_fields=dict(fields))

    def judge(outcome: CallOutcome) -> list[str]:
        text = call_text(call)
        errors = _logic_errors(outcome.value, text, True, "default", "parsed_fields must not change the match")  # fmt: skip
        if (outcome.kwargs or {}).get("parsed_fields") != fields:
            errors.append(f"Atom B: validate_logic mutated parsed_fields ({text})")
        return errors

    cases.append(Case(2, call, judge))
    return cases


def _existence_cases() -> list[Case]:
    empty = _call("check_existence", [])
    found = _call("check_existence", [dict(EVIDENCE)])

    def judge(outcome: CallOutcome, call: dict[str, Any], items: list[Any]) -> list[str]:
        text, value = call_text(call), outcome.value
        if not isinstance(value, dict):
            return [f"Atom C: returns {type_name(value)}, must return a dict ({text})"]
        errors = []
        if value.get("is_match") is not bool(items):
            errors.append(f"Atom C: is_match is {value.get('is_match')!r}, must be {bool(items)} ({text})")  # fmt: skip
        if value.get("evidence") != items:
            errors.append(f"Atom C: 'evidence' must be the items passed in, unchanged ({text})")
        if not isinstance(value.get("reason"), str):
            errors.append(f"Atom C: 'reason' is {type_name(value.get('reason'))}, must be str ({text})")  # fmt: skip
        if list(outcome.args[:1]) != [items]:
            errors.append(f"Atom C: check_existence mutated its items ({text})")
        return errors

    return [
        Case(2, empty, lambda o: judge(o, empty, [])),
        Case(2, found, lambda o: judge(o, found, [EVIDENCE])),
    ]


def _no_errors(outcome: CallOutcome) -> list[str]:
    return []


def _against_reference(call: dict[str, Any]) -> Case:
    """A level-2 validate_logic case whose right answer is the reference's (its match and kind)."""
    text = call_text(call)

    def agrees(outcome: CallOutcome, reference: CallOutcome) -> list[str]:
        expected = reference.value if isinstance(reference.value, dict) else {}
        match, kind = expected.get("is_match"), expected.get("kind")
        if not isinstance(match, bool) or not isinstance(kind, str):
            return [f"Atom B: the reference could not answer {text}, so it is unchecked"]
        hint = f"the contract's reference answers is_match={match}, kind {kind!r}"
        return _logic_errors(outcome.value, text, match, kind, hint)

    return Case(2, call, _no_errors, agrees)


def generated_logic_cases(calls: list[dict[str, Any]]) -> list[Case]:
    """Level 2: generated validate_logic calls, each judged against the reference."""
    return [_against_reference(call) for call in calls]


def contract_cases(
    atoms: tuple[str, ...], sample: str = "", generated: list[dict[str, Any]] | None = None
) -> list[Case]:
    """Level 2: the contract cases of every atom the code defines (with ``generated``
    validate_logic calls judged against the reference, when given)."""
    cases: list[Case] = []
    if "extract_context" in atoms:
        cases += _extract_cases(sample)
    if "validate_logic" in atoms:
        cases += _logic_cases()
        cases += generated_logic_cases(generated or [])
    if "check_existence" in atoms:
        cases += _existence_cases()
    return cases


def sample_lines(sample: str) -> list[tuple[int, str]]:
    """The sample's non-blank lines, numbered from 1, at most 50 (``sample`` with no sample)."""
    lines = [(n, line) for n, line in enumerate(sample.splitlines(), 1) if line.strip()]
    return lines[:MAX_SAMPLE_LINES] if lines else [(1, "sample")]


def twin_cases(spec: AtomSpec, atoms: tuple[str, ...], sample: str) -> list[Case]:
    """Level 3: validate_logic reports the spec's kind on every sample line and matches it
    exactly when the reference does, and extract_context finds something in the sample."""
    cases = []
    options = {"default_match": spec.default_match, "regex_mode": spec.regex_mode}
    for number, line in sample_lines(sample):

        def judge(outcome: CallOutcome, number: int = number) -> list[str]:
            value = outcome.value
            kind = value.get("kind") if isinstance(value, dict) else None
            if kind == spec.kind:
                return []
            got = f"kind {kind!r}" if kind is not None else f"a {type_name(value)} without a kind"
            return [f"Consistency Error: the spec declares a {spec.kind} pattern, but validate_logic reports {got} for line {number}"]  # fmt: skip

        def agrees(outcome: CallOutcome, reference: CallOutcome, number: int = number) -> list[str]:
            value, expected = outcome.value, reference.value
            if not isinstance(value, dict) or value.get("kind") != spec.kind:
                return []  # the kind's own error is said by ``judge``
            wanted = expected.get("is_match") if isinstance(expected, dict) else None
            if not isinstance(wanted, bool):
                return [f"Consistency Error: the spec's pattern could not be checked on line {number}"]  # fmt: skip
            if value.get("is_match") is wanted:
                return []
            return [f"Consistency Error: the spec's pattern {'matches' if wanted else 'does not match'} line {number}, but validate_logic reports is_match={value.get('is_match')!r}"]  # fmt: skip

        call = _call("validate_logic", line, spec.pattern, **options)
        cases.append(Case(3, call, judge, agrees))
    if sample and "extract_context" in atoms:
        count = len(sample.splitlines())

        def found(outcome: CallOutcome) -> list[str]:
            if isinstance(outcome.value, list) and outcome.value:
                return []
            return [f"extract_context finds nothing in the {count} sample lines"]

        cases.append(Case(3, _call("extract_context", sample, "sample.log"), found))
    return cases
