"""Message append and streaming flush on the conversation store, against a bare SQLite INSERT.

One run appends N records the way a chat does: a user message, then an assistant reply created
as ``streaming`` and flushed a few times as tokens arrive, then finished with its status and
usage. Every operation commits. The baseline, in the same run and folder, is a bare
autocommitted ``INSERT`` into a plain two-column table with the same pragmas (WAL,
synchronous=NORMAL). Figures are per-operation medians; the reported value is the median of
the runs' medians.

    .venv/bin/python benchmarks/bench_append.py [--runs 5] [--appends 1000]

Target: append and update medians < 2 ms.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from storage.models import MessageStatus  # noqa: E402
from storage.sqlite_store import SqliteConversationStore  # noqa: E402

TARGET_MS = 2.0
FLUSHES_PER_REPLY = 5


@dataclass(frozen=True)
class Result:
    append_ms: float
    update_ms: float
    baseline_ms: float

    @property
    def passed(self) -> bool:
        return self.append_ms < TARGET_MS and self.update_ms < TARGET_MS


def _ms(start: int) -> float:
    return (time.perf_counter_ns() - start) / 1e6


def one_run(store: SqliteConversationStore, appends: int) -> tuple[float, float]:
    """Median ms of an append and of a streaming flush over ``appends`` appended records."""
    conv = store.create_conversation("ide-helper", "bench")
    appends_ms: list[float] = []
    updates_ms: list[float] = []
    parent: str | None = None
    for i in range(appends // 2):
        start = time.perf_counter_ns()
        user = store.add_message(conv.id, "user", f"question {i} " * 8, parent)
        appends_ms.append(_ms(start))
        start = time.perf_counter_ns()
        reply = store.add_message(
            conv.id, "assistant", "", user.id, {"status": "streaming", "model": "offline"}
        )
        appends_ms.append(_ms(start))
        text = ""
        for k in range(FLUSHES_PER_REPLY):
            text += f"token{k} " * 20
            start = time.perf_counter_ns()
            store.update_message(reply.id, content=text)
            updates_ms.append(_ms(start))
        start = time.perf_counter_ns()
        store.update_message(
            reply.id,
            status=MessageStatus.COMPLETE,
            meta={"usage": {"total_tokens": 100}, "latency_ms": 5},
        )
        updates_ms.append(_ms(start))
        parent = reply.id
    return statistics.median(appends_ms), statistics.median(updates_ms)


def baseline_run(folder: Path, inserts: int, run: int) -> float:
    """Median ms of a bare autocommitted INSERT with the store's pragmas."""
    conn = sqlite3.connect(folder / f"baseline-{run}.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("CREATE TABLE IF NOT EXISTS plain (id TEXT PRIMARY KEY, content TEXT)")
    times: list[float] = []
    for i in range(inserts):
        start = time.perf_counter_ns()
        conn.execute("INSERT INTO plain VALUES (?, ?)", (f"{run}-{i}", f"question {i} " * 8))
        times.append(_ms(start))
    conn.close()
    return statistics.median(times)


def measure(runs: int = 5, appends: int = 1000) -> Result:
    with tempfile.TemporaryDirectory(prefix="weaver-bench-") as tmp:
        folder = Path(tmp)
        store = SqliteConversationStore(folder / "conversations.sqlite")
        appends_ms, updates_ms, baseline_ms = [], [], []
        try:
            for run in range(runs):
                append_ms, update_ms = one_run(store, appends)
                appends_ms.append(append_ms)
                updates_ms.append(update_ms)
                baseline_ms.append(baseline_run(folder, appends, run))
        finally:
            store.close()
    return Result(
        statistics.median(appends_ms), statistics.median(updates_ms), statistics.median(baseline_ms)
    )


def report(result: Result, runs: int, appends: int) -> str:
    ratio = result.append_ms / result.baseline_ms if result.baseline_ms else float("inf")
    return "\n".join(
        [
            f"message append + streaming flush: median of {runs} runs of {appends} appends",
            f"  append (add_message)        {result.append_ms:.3f} ms/op",
            f"  flush  (update_message)     {result.update_ms:.3f} ms/op",
            f"  baseline bare INSERT        {result.baseline_ms:.3f} ms/op",
            f"  ratio append / baseline     {ratio:.1f}x",
            f"  target                      < {TARGET_MS:.1f} ms/op (append and flush)",
            f"  {'PASS' if result.passed else 'FAIL'}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--appends", type=int, default=1000)
    args = parser.parse_args(argv)
    result = measure(args.runs, args.appends)
    print(report(result, args.runs, args.appends))
    return 0 if result.passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
