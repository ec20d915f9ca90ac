"""The three-level validator of atom-developer's atoms.

Level 1 (``AST``) reads the code's syntax tree and never runs it; level 2 (``contract run``)
runs each defined atom's contract cases in a sandboxed child process; level 3 (``twin
consistency``) checks, in the same child, that ``validate_logic`` agrees with a YAML spec on
the sample's lines. Cases whose right answer is the contract's reference implementation's
(``reference.py``) are also run on the reference, in a sandbox run of its own beside the
atoms'. A level that cannot run is ``skipped`` with the reason.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from typing import Any

from agents.profiles.atom_developer.validation.contract import Case, contract_cases, twin_cases
from agents.profiles.atom_developer.validation.reference import REFERENCE_CODE, logic_calls
from agents.profiles.atom_developer.validation.report import LevelResult, ValidationReport
from agents.profiles.atom_developer.validation.sandbox import (
    DEFAULT_LIMITS,
    CallOutcome,
    SandboxLimits,
    SandboxResult,
    explain,
    run_atoms,
)
from agents.profiles.atom_developer.validation.spec import read_spec
from agents.profiles.atom_developer.validation.static_check import ATOM_NAMES, check_static

__all__ = ["LevelResult", "SandboxLimits", "ValidationReport", "avalidate", "validate"]

NAMES = {1: "AST", 2: "contract run", 3: "twin consistency"}


def _level(level: int, errors: list[str], ms: float, note: str = "") -> LevelResult:
    if errors:
        return LevelResult(level, NAMES[level], "failed", tuple(errors), note, ms)
    return LevelResult(level, NAMES[level], "passed", (), note, ms)


def _skipped(level: int, note: str) -> LevelResult:
    return LevelResult(level, NAMES[level], "skipped", (), note)


NO_SPEC = "no YAML spec given: a draft gives its spec beside the atoms"


def _missing(atoms: tuple[str, ...], whole: bool, keep: tuple[str, ...]) -> list[str]:
    """Why code lacking an atom it must define is not a pass: a whole draft gives all three,
    and a fix keeps every atom of the code it fixes (``keep``)."""
    errors = [
        f"the draft defines no {name}: a draft gives all three atoms, {', '.join(ATOM_NAMES)}"
        for name in ATOM_NAMES
        if whole and name not in atoms
    ]
    errors += [
        f"the fix dropped {name}, which the code it fixes defines; a fix keeps every atom"
        for name in ATOM_NAMES
        if name in keep and name not in atoms and not whole
    ]
    return errors


async def _run_levels(
    code: str, atoms: tuple[str, ...], spec: str | None, sample: str, limits: SandboxLimits,
    whole: bool, keep: tuple[str, ...], rng: random.Random,
) -> tuple[LevelResult, LevelResult, str]:  # fmt: skip
    """Levels 2 and 3 from one sandbox run (and one of the reference beside it), and why
    the run was refused (else empty)."""
    started = time.perf_counter()
    # a hostile spec may take the YAML reader a good part of a second: off the event loop
    cases, spec_errors = await asyncio.to_thread(_cases, atoms, spec, sample, logic_calls(rng))
    spec_ms = (time.perf_counter() - started) * 1000
    referenced = [case.call for case in cases if case.against_reference is not None]
    result, reference = await asyncio.gather(
        run_atoms(code, [case.call for case in cases], limits),
        run_atoms(REFERENCE_CODE, referenced, limits),
    )
    errors = _errors_by_level(cases, result, spec_errors, limits, reference)
    errors[2] = _missing(atoms, whole, keep) + errors[2]
    contract = _level(2, errors[2], result.ms)
    refused = result.stopped if result.refused else ""
    if spec is None:
        twin = _level(3, [NO_SPEC], 0) if whole else _skipped(3, "no YAML spec given")
    elif result.load_error and not spec_errors:
        twin = _skipped(3, "the code fails when it is loaded")
    else:
        twin = _level(3, errors[3], spec_ms)
    return contract, twin, refused


def _cases(
    atoms: tuple[str, ...], spec: str | None, sample: str, generated: list[dict[str, Any]]
) -> tuple[list[Case], list[str]]:
    """The contract cases (with the ``generated`` validate_logic calls), with the spec's twin
    cases when it reads; and the spec's errors."""
    spec_errors: list[str] = []
    cases: list[Case] = contract_cases(atoms, sample, generated)
    if spec is not None:
        parsed, spec_errors = read_spec(spec)
        if parsed is not None and "validate_logic" not in atoms:
            spec_errors.append("the spec is checked through validate_logic; define it")
        elif parsed is not None:
            cases += twin_cases(parsed, atoms, sample)
    return cases, spec_errors


def _judged(
    case: Case, outcome: CallOutcome, expected: CallOutcome | None, unanswered: dict[int, int]
) -> list[str]:
    """``case``'s errors against the reference's ``expected`` outcome; a case the reference
    did not answer is counted in ``unanswered`` (it is unchecked, never passed)."""
    if case.against_reference is None or expected is None or not expected.ok:
        unanswered[case.level] += 1
        return []
    return case.against_reference(outcome, expected)


def _errors_by_level(
    cases: list[Case], result: SandboxResult, spec_errors: list[str], limits: SandboxLimits,
    reference: SandboxResult | None = None,
) -> dict[int, list[str]]:  # fmt: skip
    """Each level's errors from the sandbox's outcomes; checks it never reached are counted.

    A run that stopped (out of time, past the output limit, a process that died, a report
    that could not be read, a sandbox that refused to run) is never a pass, even when every
    case had answered before it stopped: its sentence is an error of the level of the case it
    stopped in, or of level 2 when that case had answered or there is none.

    A case judged against the reference (``reference``: its run, in the order of those
    cases) that the reference did not answer is an error of its level: it is unchecked."""
    errors: dict[int, list[str]] = {2: [], 3: list(spec_errors)}
    answers = iter(reference.outcomes if reference is not None else ())
    unanswered = {2: 0, 3: 0}
    if result.load_error:
        errors[2].append(f"the code fails when it is loaded: {result.load_error}")
    unrun = {2: 0, 3: 0}
    stop_said = not result.stopped
    for index, case in enumerate(cases):
        expected = next(answers, None) if case.against_reference is not None else None
        if index < len(result.outcomes):
            outcome = result.outcomes[index]
            if outcome.ok:
                errors[case.level] += case.judge(outcome)
                if case.against_reference is not None:
                    errors[case.level] += _judged(case, outcome, expected, unanswered)
            else:
                errors[case.level].append(explain(case.text, outcome.error, limits))
        elif index == result.stopped_at and not stop_said:
            errors[case.level].append(result.stopped)
            stop_said = True
        elif not result.load_error:
            unrun[case.level] += 1
    if not stop_said:
        errors[2].append(result.stopped)
    for level, count in unrun.items():
        if count and not errors[level]:
            errors[level].append(f"{count} checks did not run: the sandbox stopped before them")
    why = (reference.stopped if reference is not None else "") or "it failed on them"
    for level, count in unanswered.items():
        errors[level] += [f"{count} checks could not be made: the contract's reference did not answer them ({why})"] if count else []  # fmt: skip
    return errors


async def avalidate(
    code: str,
    spec: str | None = None,
    sample: str = "",
    *,
    limits: SandboxLimits = DEFAULT_LIMITS,
    whole: bool = False,
    keep: tuple[str, ...] = (),
    rng: random.Random | None = None,
) -> ValidationReport:
    """Validate atom ``code`` on all three levels (against ``spec`` and ``sample`` if given).

    ``whole``: the code is a draft answering a request, checked as the whole twin it must be
    (all three atoms and a spec). An atom or a spec it lacks is then an error of its level,
    so a draft is never valid on the parts it happens to define; without ``whole`` (a user's
    own file) the atoms it defines are checked and a missing spec skips level 3. ``keep``: the
    atoms of the code this code fixes; a fix that drops one is never valid (it would pass by
    leaving out what failed). ``rng``: the source of level 2's generated calls (by default a
    fresh one seeded from the system's, which the checked code cannot see)."""
    started = time.perf_counter()
    static = check_static(code)
    first = _level(1, static.errors, (time.perf_counter() - started) * 1000)
    if static.errors:
        note = "level 1 failed: the code is never run"
        return ValidationReport(
            (first, _skipped(2, note), _skipped(3, note)), static.atoms, tuple(static.warnings)
        )
    source = rng if rng is not None else random.Random(secrets.randbits(64))
    contract, twin, refused = await _run_levels(
        code, static.atoms, spec, sample, limits, whole, keep, source
    )
    return ValidationReport((first, contract, twin), static.atoms, tuple(static.warnings), refused)


def validate(
    code: str,
    spec: str | None = None,
    sample: str = "",
    *,
    limits: SandboxLimits = DEFAULT_LIMITS,
    rng: random.Random | None = None,
) -> ValidationReport:
    """:func:`avalidate` for code that runs no event loop (the command line)."""
    return asyncio.run(avalidate(code, spec, sample, limits=limits, rng=rng))
