"""The verdict cannot be forged from inside the sandbox: an atom that reaches ``os`` and writes
a report saying every check passed, in either format the sandbox has used, to every descriptor
it holds, gets a failed level 2, never "passed". Each call runs in a child of its own that holds
only its own reply pipe, so an atom controls no more than its own call's value."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.profiles.atom_developer import validation
from agents.profiles.atom_developer.validation import harness
from agents.profiles.atom_developer.validation.contract import contract_cases
from agents.profiles.atom_developer.validation.static_check import StaticResult
from tests.atom_developer.conftest import atom_file


def _records(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a passing check_existence would report for each call."""
    records = []
    for call in calls:
        items = call["args"][0]
        value = {"is_match": bool(items), "reason": "found", "evidence": items}
        records.append({"ok": True, "value": harness.encode(value), "args": [harness.encode(items)], "kwargs": {}})  # fmt: skip
    return records


def forged_report() -> str:
    """A report of every contract call passing, in the single-process format and in the fork
    server's."""
    calls = [case.call for case in contract_cases(("check_existence",))]
    lines: list[dict[str, Any]] = []
    for index, record in enumerate(_records(calls)):
        lines += [{"call": index}, {**record, "result": index}]
    lines.append({"end": True, "load_error": "", "printed": ""})
    lines += [{"start": -1}, {"reply": -1, "payload": json.dumps({"loaded": True})}]
    for index, record in enumerate(_records(calls)):
        lines += [{"start": index}, {"reply": index, "payload": json.dumps(record)}]
    lines.append({"end": True})
    return "\n" + "".join(json.dumps(line) + "\n" for line in lines)


def forger(entry: str) -> str:
    """The forging atom, with ``entry`` as its check_existence."""
    code = atom_file("forger").replace('"{forged}"', repr(forged_report()))
    if entry == "check_existence":
        return code
    return code.replace("def check_existence", "def _ended").replace(f"def {entry}", "def check_existence")  # fmt: skip


@pytest.fixture
def level_1_bypassed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hook the production path does not have: level 1 passes the forger's code."""
    bypassed = StaticResult(atoms=("check_existence",))
    monkeypatch.setattr(validation, "check_static", lambda code: bypassed)


@pytest.mark.usefixtures("level_1_bypassed")
async def test_a_forged_report_and_an_early_exit_fail_level_2() -> None:
    report = await validation.avalidate(forger("check_existence"))
    assert report.levels[1].status == "failed"
    assert not report.valid


@pytest.mark.usefixtures("level_1_bypassed")
async def test_a_forged_report_beside_a_real_value_is_judged_on_the_real_value() -> None:
    report = await validation.avalidate(forger("forge_and_return_garbage"))
    assert report.levels[1].status == "failed"
    assert any("is_match is 'garbage'" in error for error in report.levels[1].errors)
