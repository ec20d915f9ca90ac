"""The seat round-trip benchmark still runs end to end: a real ``space open`` host, two seats,
two messages on the offline model. Not a timing check: it passes when every message sent at
Alex's seat was seen delivered at Sam's and the figures and verdict were printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_message_sent_at_one_seat_is_measured_arriving_at_the_other() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_seat_roundtrip.py"), "--messages", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "2 messages" in result.stdout, result.stderr[-3000:]
    verdict = next(line for line in result.stdout.splitlines() if "target:" in line)
    assert "median" in verdict
    assert "p95" in verdict
    assert verdict.rstrip().endswith(("PASS", "FAIL"))
