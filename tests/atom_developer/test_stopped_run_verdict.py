"""A sandbox run that stopped is never a pass.

The class: the run is cut short (its time ran out, its output passed the limit) at any point,
also after every call had already answered but before the fork server's end record. The
guarantee, held where the levels' errors are counted: the validation is not valid and the
stop's one sentence is among its errors. The complete run of the same replies is valid, so
the cut alone is what fails it.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.profiles.atom_developer import validation
from agents.profiles.atom_developer.validation.contract import contract_cases
from agents.profiles.atom_developer.validation.harness import encode
from agents.profiles.atom_developer.validation.sandbox import DEFAULT_LIMITS, Run, SandboxResult

CODE = """
def check_existence(items: list) -> dict:
    return {"is_match": bool(items), "reason": "found", "evidence": items}
"""
CALLS = [case.call for case in contract_cases(("check_existence",))]


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record) + "\n").encode("utf-8")


def _stream() -> bytes:
    """What the fork server writes for a run where every call of CODE answers rightly."""
    lines = [_line({"start": -1}), _line({"reply": -1, "payload": json.dumps({"loaded": True})})]
    for index, call in enumerate(CALLS):
        items = call["args"][0]
        value = {"is_match": bool(items), "reason": "found", "evidence": items}
        reply = {"ok": True, "value": encode(value), "args": [encode(items)], "kwargs": {}}
        lines += [_line({"start": index}), _line({"reply": index, "payload": json.dumps(reply)})]
    return b"".join([*lines, _line({"end": True})])


STREAM = _stream()
END = len(_line({"end": True}))


async def _verdict(
    monkeypatch: pytest.MonkeyPatch, stdout: bytes, timed_out: bool, overflow: bool
) -> tuple[validation.ValidationReport, SandboxResult]:
    run = Run(CALLS, DEFAULT_LIMITS, time.perf_counter(), 0, "")
    result = run.read(stdout, timed_out=timed_out, overflow=overflow)

    async def replayed(*args: Any, **kwargs: Any) -> SandboxResult:
        return result

    monkeypatch.setattr(validation, "run_atoms", replayed)
    return await validation.avalidate(CODE), result


async def test_the_complete_run_is_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    report, _ = await _verdict(monkeypatch, STREAM, timed_out=False, overflow=False)
    assert report.valid, report.errors


@pytest.mark.parametrize(("timed_out", "overflow"), [(True, False), (False, True)])
async def test_a_run_cut_after_every_reply_is_not_a_pass(
    monkeypatch: pytest.MonkeyPatch, timed_out: bool, overflow: bool
) -> None:
    report, result = await _verdict(monkeypatch, STREAM[:-END], timed_out, overflow)
    assert not report.valid
    assert result.stopped in report.errors


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, len(STREAM) - 1), st.booleans())
async def test_a_run_cut_anywhere_is_not_a_pass(
    monkeypatch: pytest.MonkeyPatch, cut: int, timed_out: bool
) -> None:
    report, result = await _verdict(monkeypatch, STREAM[:cut], timed_out, not timed_out)
    assert result.stopped
    assert not report.valid
    assert result.stopped in report.errors
