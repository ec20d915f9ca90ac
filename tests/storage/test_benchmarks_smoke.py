"""The storage benchmarks run end to end on a tiny size (their figures are not asserted here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_bench_append_reports_figure_baseline_ratio_and_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = _load("bench_append")
    bench.main(["--runs", "1", "--appends", "20"])
    out = capsys.readouterr().out
    for word in ("append (add_message)", "baseline bare INSERT", "ratio", "target"):
        assert word in out
    assert "PASS" in out or "FAIL" in out


def test_bench_open_tree_builds_the_exact_size_and_reports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = _load("bench_open_tree")
    bench.main(["--runs", "1", "--records", "120"])
    out = capsys.readouterr().out
    assert "open a conversation of 120 records" in out
    assert "baseline connect + SELECT *" in out
    assert "ratio" in out


def test_bench_store_scale_builds_a_small_store_and_reports_each_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = _load("bench_store_scale")
    bench.main(["--quick"])
    out = capsys.readouterr().out
    assert "store of 20 conversations x 100 records" in out
    for figure in ("list", "open", "search"):
        line = next(line for line in out.splitlines() if line.strip().startswith(figure))
        assert "baseline" in line
        assert "ratio" in line
        assert "PASS" in line or "FAIL" in line


def test_bench_conversation_list_reports_each_size_with_a_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = _load("bench_conversation_list")
    bench.main(["--runs", "1", "--sizes", "30", "250"])
    lines = capsys.readouterr().out.splitlines()
    assert "list screen" in lines[0]
    assert [line.split()[0] for line in lines[1:]] == ["30", "250"]
    assert all("PASS" in line or "FAIL" in line for line in lines[1:])


def test_bench_store_backends_reports_each_figure_on_both_backends(
    capsys: pytest.CaptureFixture[str], postgres_url: str
) -> None:
    bench = _load("bench_store_backends")
    bench.main(["--quick", "--url", postgres_url])
    out = capsys.readouterr().out
    assert "store of 50 conversations x 10 records" in out
    assert "store migrate to PostgreSQL took" in out
    for figure in ("list", "open", "search"):
        line = next(
            line
            for line in out.splitlines()
            if line.split()[:2] == [figure, line.split()[1]] and line.split()[1][:1].isdigit()
        )
        assert "PASS" in line or "FAIL" in line
