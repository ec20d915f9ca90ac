"""The search benchmark's tree generator and search run on a small tree (no timing here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from agents.profiles.ide_helper.search import search_project

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_search_code.py"


def test_benchmark_tree_is_searchable(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_search_code", BENCH)
    assert spec is not None
    assert spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.generate_tree(tmp_path, 501)
    result = search_project(tmp_path, "NEEDLE_marker")
    assert result.files_searched == 501
    assert [path for path, _, _ in result.matches] == [
        "pkg0/mod0/file0.py",
        "pkg20/mod7/file500.py",
    ]
