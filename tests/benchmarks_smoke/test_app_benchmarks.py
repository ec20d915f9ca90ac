"""The whole-app benchmarks still run: each script with ``--quick`` (tiny sizes, one run).

They are not timing checks (figures on a shared CI machine mean nothing): a script passes
when it finishes, measured every figure and printed each verdict. The three run side by side
so the smoke test stays short; each one spawns its own fake server and app processes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = {
    "bench_app_stream.py": 3,
    "bench_app_keys.py": 1,
    "bench_app_history.py": 3,
}
"""Each script and how many result blocks (``target:`` lines) it prints."""


@pytest.fixture(scope="module")
def outputs() -> dict[str, subprocess.CompletedProcess[str]]:
    running = {
        name: subprocess.Popen(
            [sys.executable, str(ROOT / "benchmarks" / name), "--quick"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in SCRIPTS
    }
    done = {}
    for name, process in running.items():
        try:
            stdout, stderr = process.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
        done[name] = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    return done


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_runs_and_reports_every_figure(
    name: str, outputs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    result = outputs[name]
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = [line for line in result.stdout.splitlines() if "target:" in line]
    assert len(verdicts) == SCRIPTS[name], result.stdout
    assert all(line.rstrip().endswith(("PASS", "FAIL")) for line in verdicts)
    assert "figure:" in result.stdout
    assert "baseline:" in result.stdout
