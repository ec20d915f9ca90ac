"""paper-pilot's evaluation runs on the suite's scripted server and prints its table: the
scripted model cites the sentences that hold the gold terms, so every answerable question is
answered with correct citations, and the unanswerable ones (one of them answered by the model
from its own knowledge, uncited) all end "not in your notes"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOUND_S = 240


def test_the_evaluation_runs_on_the_scripted_server_and_prints_its_table() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "eval_paper_pilot.py"), "--scripted"],
        cwd=ROOT, capture_output=True, text=True, timeout=BOUND_S, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[2:] if line.strip()}  # fmt: skip
    assert set(rows) == {"answerable", "multi_hop", "comparative", "unanswerable", "all"}
    n, accuracy, precision, recall, not_in_notes, calls = rows["all"]
    assert int(n) == 11
    assert (accuracy, precision, recall, not_in_notes) == ("1.00", "1.00", "1.00", "1.00")
    assert 1.0 <= float(calls) <= 8.0
    assert rows["unanswerable"][1:4] == ["-", "-", "-"]
