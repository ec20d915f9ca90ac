"""The whole-app benchmarks still run: each script with ``--quick`` (tiny sizes, one run, no
untimed warm-up child, as few processes as the figures allow: a launch is timed from its own
process's start, other measurements share one).

They are not timing checks (figures on a shared CI machine mean nothing): a script passes
when it finishes, measured every figure and printed each verdict. Each test runs its own
script (each spawns its own fake server and app processes), so pytest-xdist spreads them over
its workers and no worker runs a script another one runs too.
"""

from __future__ import annotations

import re
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
BOUND_S = 240


def run_quick(name: str) -> subprocess.CompletedProcess[str]:
    """``benchmarks/NAME --quick``, killed after :data:`BOUND_S` (a bound against a hang)."""
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / name), "--quick"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=BOUND_S)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def presses_during_the_stream(stdout: str) -> int:
    """How many of each run's presses the keys benchmark sent before the reply was over."""
    found = re.search(r"at least (\d+)/\d+ presses per run landed before the reply ended", stdout)
    assert found is not None, stdout
    return int(found.group(1))


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_runs_and_reports_every_figure(name: str) -> None:
    result = run_quick(name)
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = [line for line in result.stdout.splitlines() if "target:" in line]
    assert len(verdicts) == SCRIPTS[name], result.stdout
    assert all(line.rstrip().endswith(("PASS", "FAIL")) for line in verdicts)
    assert "figure:" in result.stdout
    assert "baseline:" in result.stdout
    if name == "bench_app_keys.py":  # its figure is the presses while a reply streams
        assert presses_during_the_stream(result.stdout) >= 1, result.stdout
