"""The message-view benchmarks still run: each measurement once, on a tiny workload.

Figures are not asserted here (speed targets live in the scripts); this keeps the scripts
from rotting as the view changes.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import bench_ui_history  # noqa: E402
import bench_ui_keys  # noqa: E402
import bench_ui_stream  # noqa: E402
from _ui_harness import markdown_reply  # noqa: E402


async def test_stream_benchmark_runs_on_a_short_reply() -> None:
    tokens = markdown_reply(300)
    assert len(tokens) == 300
    assert "```" in "".join(markdown_reply(3000))
    wall, cpu = await bench_ui_stream.view_full_speed(tokens)
    assert wall > 0
    assert cpu > 0
    lag, load = await bench_ui_stream.view_paced_lag(tokens, rate=5000)
    assert lag >= 0
    assert load >= 0


async def test_keys_benchmark_measures_presses_while_streaming() -> None:
    reply = markdown_reply(300)
    latencies = await bench_ui_keys.view_latencies(reply[100:], 500, 3, 0.01, reply[:100])
    assert len(latencies) == 3
    assert all(0 < handled <= painted for handled, painted in latencies)


async def test_history_benchmark_opens_a_path() -> None:
    result = await bench_ui_history.view_case(60)
    assert 0 < result["first_paint"] <= result["seconds"]
    assert 0 < result["blocks"] <= 60
    assert result["switch"] > 0
