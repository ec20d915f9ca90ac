"""The store on SQLite and on PostgreSQL, side by side: 10,000 conversations, list, open, search.

The store is built once on the SQLite file, through the store as a chat writes it (branched
trees from ``bench_open_tree``), then copied to a PostgreSQL server with ``store migrate``
(its time is reported too). On each backend, from a store opened once (median of runs):

- list: the conversation list's first page (``list_conversations(limit=50)``) and the count;
- open: one conversation at its deepest leaf as the chat screen opens it (``ChatState.open``);
- search: every branch of every conversation (``search``, ranked, with snippets).

Also reported: opening the store itself (the server's pool and schema check, or the file).
The server is ``--url`` or, without one, a temporary one started as the tests start theirs.

    .venv/bin/python benchmarks/bench_store_backends.py [--conversations 10000]
        [--messages 10] [--runs 5] [--url postgresql://...] [--quick]

Targets (each backend): list < 100 ms, open < 300 ms, search < 200 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_open_tree import build_tree  # noqa: E402
from storage.backend import StorageTarget, open_store  # noqa: E402
from storage.migrate import PgSide, SqliteSide, migrate  # noqa: E402

TARGETS_MS = {"list": 100.0, "open": 300.0, "search": 200.0}
SEARCH_TERMS = "function returns"


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    action()
    return (time.perf_counter_ns() - start) / 1e6


def build(path: Path, conversations: int, messages: int) -> None:
    started = time.perf_counter()
    with open_store(path) as store:
        for n in range(conversations):
            build_tree(store, messages, seed=n)  # type: ignore[arg-type]
            if (n + 1) % 1000 == 0:
                elapsed = time.perf_counter() - started
                print(f"  built {n + 1}/{conversations} ({elapsed:.0f} s)", file=sys.stderr)


def measure(target: StorageTarget | Path, runs: int) -> dict[str, float]:
    from weaver_tui.core.chat_state import ChatState

    figures: dict[str, float] = {}
    opened: list[Any] = []
    figures["open store"] = timed(lambda: opened.append(open_store(target)))
    store = opened[0]
    try:
        conversation = store.list_conversations(limit=1, offset=store.count_conversations() - 1)[0]
        index = store.tree_index(conversation.id)
        store.set_active_leaf(conversation.id, max(index, key=lambda r: index.get(r).depth))

        def app_list() -> None:
            assert store.list_conversations(limit=50)
            assert store.count_conversations()

        def app_open() -> None:
            state = ChatState(store, "ide-helper")
            state.open(conversation.id)
            state.path_items()
            state.branch_position()

        def app_search() -> None:
            assert store.search(SEARCH_TERMS)

        for name, action in (("list", app_list), ("open", app_open), ("search", app_search)):
            figures[name] = statistics.median(timed(action) for _ in range(runs))
    finally:
        store.close()
    return figures


@contextlib.contextmanager
def server(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    from tests.support.postgres_server import fresh_schema_url, start_server

    with start_server() as started:
        if started is None:
            raise SystemExit("no PostgreSQL here: install it (apt-get install postgresql)")
        yield fresh_schema_url(started)


def report(rows: dict[str, dict[str, float]], args: argparse.Namespace, copy_s: float) -> str:
    lines = [
        f"store of {args.conversations:,} conversations x {args.messages} records, "
        f"median of {args.runs} runs; store migrate to PostgreSQL took {copy_s:.1f} s",
        f"  {'':<10} {'sqlite':>10} {'postgresql':>12}   target",
    ]
    for name in ("open store", "list", "open", "search"):
        sqlite_ms, pg_ms = rows["sqlite"][name], rows["postgresql"][name]
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"< {target:.0f} ms   " + (
                "PASS" if max(sqlite_ms, pg_ms) < target else "FAIL"
            )
        lines.append(f"  {name:<10} {sqlite_ms:8.1f} ms {pg_ms:10.1f} ms   {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--messages", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--url", help="a PostgreSQL database to use (its tables are created)")
    parser.add_argument("--quick", action="store_true", help="50 x 10, one run (smoke test)")
    args = parser.parse_args(argv)
    if args.quick:
        args.conversations, args.messages, args.runs = 50, 10, 1
    with tempfile.TemporaryDirectory(prefix="weaver-backends-") as tmp, server(args.url) as url:
        path = Path(tmp) / "weaver.db"
        build(path, args.conversations, args.messages)
        started = time.perf_counter()
        migrate(SqliteSide(path), PgSide(url))
        copy_s = time.perf_counter() - started
        rows = {
            "sqlite": measure(path, args.runs),
            "postgresql": measure(StorageTarget(Path(tmp), url), args.runs),
        }
    print(report(rows, args, copy_s))
    passed = all(rows[b][n] < t for b in rows for n, t in TARGETS_MS.items())
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
