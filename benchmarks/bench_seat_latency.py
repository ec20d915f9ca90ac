"""How soon a seat sees what another process wrote: commit in one process to the line shown
in a seat's view (the change signal, ``PRAGMA data_version`` polled, then the seat's filtered
read of the path).

A child process (the host, or another seat) adds shared messages to a mediator space, each
holding the wall-clock time of its commit; this process watches the store as a seat does
(:class:`storage.change_signal.StoreChanges` and
:func:`agents.shared_space.seat_view.seat_lines` for Alex) and measures, per message, commit
to seen. Target: under 1 s (p95). Run: ``python benchmarks/bench_seat_latency.py``; with
``--url postgresql://...`` the same on a PostgreSQL server (the change signal is then the
server's ``NOTIFY``, :mod:`storage.pg_changes`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.shared_space.seat_view import seat_lines  # noqa: E402
from agents.shared_space.space import new_space  # noqa: E402
from storage.backend import StorageTarget, Where, open_changes, open_store  # noqa: E402

MESSAGES = 20
TARGET_S = 1.0
WRITER = """
import sys, time
from pathlib import Path
from storage.backend import StorageTarget, open_store
where = sys.argv[1]
store = open_store(StorageTarget(Path("."), where) if "://" in where else Path(where))
parent = None
for _ in range(int(sys.argv[3])):
    time.sleep(0.1)
    meta = {"sender": "Sam", "visibility": "shared"}
    parent = store.add_message(sys.argv[2], "user", repr(time.time()), parent, meta=meta).id
store.close()
"""


async def measure(where: Where, conversation_id: str) -> list[float]:
    store = open_store(where)
    changes = open_changes(where, conversation_id)
    named = where.url if isinstance(where, StorageTarget) else str(where)
    writer = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITER, str(named), conversation_id, str(MESSAGES),
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    seen: dict[str, float] = {}
    try:
        while len(seen) < MESSAGES:
            await asyncio.wait_for(changes.wait(), 30)
            now = time.time()
            for line in seat_lines(store, conversation_id, "Alex"):
                seen.setdefault(line.content, now - float(line.content))
    finally:
        await asyncio.wait_for(writer.wait(), 60)
        changes.close()
        store.close()
    return sorted(seen.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a PostgreSQL database instead of a SQLite file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        where: Where = (
            StorageTarget(Path(folder), args.url) if args.url else Path(folder) / "weaver.db"
        )
        with open_store(where) as store:
            space = new_space(store, ("Alex", "Sam"))
        latencies = asyncio.run(measure(where, space.id))
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    median = statistics.median(latencies)
    print(f"seat latency, commit in another process to seen at a seat ({MESSAGES} messages):")
    print(
        f"  median {median * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, target < {TARGET_S * 1000:.0f} ms"
    )
    return 0 if p95 < TARGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
