"""The conversation list at 10,000 and 100,000 conversations: what the list screen reads to
open (the count and the first page, newest first) against reading every conversation, and a
bare ``sqlite3`` read of the same page as the baseline, all in the same run; and the list
screen itself (``ConversationsScreen`` pushed in a headless app, to its table holding the first
page): its time is Textual's first paint of the table's visible rows, the same at any size
(printed for information; the target is the store's read).

    .venv/bin/python benchmarks/bench_conversation_list.py [--sizes 10000 100000] [--runs 7]

Target: the list screen's read <= 30 ms at 10,000 conversations, and about as fast at 100,000
(a page costs the same however many conversations the store holds).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from storage.sqlite_store import SqliteConversationStore  # noqa: E402
from weaver_tui.screens.conversations import PAGE  # noqa: E402

TARGET_MS = 30.0
PROFILES = ("ide-helper", "mediator", "paper-pilot", "atom-developer")


def build(path: Path, size: int) -> None:
    """``size`` conversations, written through the store as new conversations are."""
    with SqliteConversationStore(path) as store:
        for number in range(size):
            meta = {"project_root": "/home/user/project", "active_leaf": f"{number:032x}"}
            store.create_conversation(
                PROFILES[number % len(PROFILES)], f"Conversation number {number}", meta
            )


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter_ns()
        action()
        times.append((time.perf_counter_ns() - started) / 1e6)
    return statistics.median(times)


def measure(path: Path, runs: int) -> dict[str, float]:
    with SqliteConversationStore(path) as store:

        def screen_read() -> None:
            store.count_conversations()
            assert store.list_conversations(limit=PAGE)

        every = median_ms(lambda: store.list_conversations(), runs)
        page = median_ms(screen_read, runs)
    conn = sqlite3.connect(path)
    sql = "SELECT * FROM conversations ORDER BY updated_at DESC LIMIT ?"
    bare = median_ms(lambda: conn.execute(sql, (PAGE,)).fetchall(), runs)
    conn.close()
    return {"screen": page, "every": every, "bare": bare}


def screen_ms(path: Path, runs: int) -> float:
    """The median time to push the list screen and have its first page in its table."""
    import asyncio

    from textual.app import App
    from textual.widgets import DataTable

    from weaver_tui.screens.conversations import ConversationsScreen

    times: list[float] = []

    async def one(store: SqliteConversationStore) -> None:
        app: App[None] = App()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            started = time.perf_counter_ns()
            screen = ConversationsScreen(store)
            await app.push_screen(screen)
            table = screen.query_one("#conversation-list", DataTable)
            assert table.row_count == min(PAGE, store.count_conversations())
            times.append((time.perf_counter_ns() - started) / 1e6)

    with SqliteConversationStore(path) as store:
        for _ in range(runs):
            asyncio.run(one(store))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    print(
        f"{'conversations':>13} {'list read':>12} {'every one':>10} {'bare page':>10} "
        f"{'list screen':>12}  target"
    )
    with tempfile.TemporaryDirectory(prefix="weaver-list-") as tmp:
        for size in args.sizes:
            path = Path(tmp) / f"list-{size}.sqlite"
            build(path, size)
            got = measure(path, args.runs)
            widget = screen_ms(path, args.runs)
            verdict = "PASS" if got["screen"] <= TARGET_MS else "FAIL"
            print(
                f"{size:>13,} {got['screen']:>9.1f} ms {got['every']:>7.1f} ms "
                f"{got['bare']:>7.1f} ms {widget:>9.1f} ms  <= {TARGET_MS:.0f} ms: {verdict}"
            )


if __name__ == "__main__":
    main()
