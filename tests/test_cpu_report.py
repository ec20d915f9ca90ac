"""``--cpu-report``: a line per test with the CPU of the test process and of its children."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from tests.support.cpu_report import CpuReport, ranking


def test_a_test_line_counts_the_children_it_waited_for(tmp_path: Path) -> None:
    report = tmp_path / "cpu.jsonl"
    item = cast(pytest.Item, type("Item", (), {"nodeid": "tests/a/test_x.py::test_spawn"})())
    protocol = CpuReport(report).pytest_runtest_protocol(item)
    next(protocol)
    subprocess.run([sys.executable, "-c", "sum(range(3_000_000))"], check=True)
    with pytest.raises(StopIteration):
        next(protocol)
    line: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    assert line["id"] == "tests/a/test_x.py::test_spawn"
    assert line["children"] > 0
    assert line["self"] >= 0


def test_the_ranking_sums_folders_and_lists_the_costliest_tests_first() -> None:
    lines = [
        json.dumps({"id": "tests/a/test_x.py::test_one", "self": 1.0, "children": 2.0}),
        json.dumps({"id": "tests/a/test_y.py::test_two", "self": 0.5, "children": 0.0}),
        json.dumps({"id": "tests/b/test_z.py::test_three", "self": 4.0, "children": 0.0}),
    ]
    out = ranking(lines, 2)
    assert out[0] == "7.5 s CPU in 3 tests"
    assert [line.split()[-1] for line in out[1:]] == [
        "tests/b/", "tests/a/", "tests/b/test_z.py::test_three", "tests/a/test_x.py::test_one",
    ]  # fmt: skip


def test_the_waits_ranking_puts_the_test_that_slept_first(tmp_path: Path) -> None:
    report = tmp_path / "cpu.jsonl"
    for name, code in (("test_sleeps", "import time; time.sleep(0.3)"), ("test_works", "")):
        item = cast(pytest.Item, type("Item", (), {"nodeid": f"tests/a/test_x.py::{name}"})())
        protocol = CpuReport(report).pytest_runtest_protocol(item)
        next(protocol)
        subprocess.run([sys.executable, "-c", code], check=True)
        with pytest.raises(StopIteration):
            next(protocol)
    lines = report.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["wall"] > 0 for line in lines)
    out = ranking(lines, 2, waits=True)
    assert out[0].endswith("s waiting in 2 tests")
    assert out[2].split()[-1] == "tests/a/test_x.py::test_sleeps"
    assert float(out[2].split()[0]) >= 0.25
