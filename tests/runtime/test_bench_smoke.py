"""The runtime streaming benchmark runs end to end on a short reply (figures are not checked)."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_stream_runtime.py"


def test_bench_stream_runtime_runs(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_stream_runtime", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    ratio = asyncio.run(bench.main(200, runs=1))

    out = capsys.readouterr().out
    assert ratio > 0
    assert "(200 token deltas, stored)" in out and "ratio (c)/(b)" in out
