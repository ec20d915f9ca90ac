"""The runtime benchmarks run end to end on small inputs (their figures are not checked here)."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_stream_runtime_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_stream_runtime")

    ratio = asyncio.run(bench.main(200, runs=1))

    out = capsys.readouterr().out
    assert ratio > 0
    assert "characters, stored)" in out  # and the same text as the raw read (else it exits)
    assert "ratio (c)/(b)" in out


def test_bench_cancel_latency_runs(capsys: pytest.CaptureFixture[str]) -> None:
    results = asyncio.run(_load("bench_cancel_latency").main(runs=1))

    assert set(results) == {"mid-stream", "silent provider"}
    assert "bare astream task" in capsys.readouterr().out
