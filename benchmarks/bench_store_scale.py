"""A big store: 1,000 conversations of 1,000 records each (with forks, tool rounds, edits).

Three things a user does with it, each timed from a freshly opened store (median of runs),
against a bare ``sqlite3`` baseline of the same rows measured in the same run:

- open the conversation list (``list_conversations``; baseline ``SELECT * FROM conversations``);
- open one conversation at its deepest leaf as the chat screen does (``ChatState.open``, the
  path's items, the branch position; baseline ``SELECT *`` of its records);
- search every branch of every conversation (``search``, ranked, with snippets; baseline a
  bare FTS5 ``MATCH`` of the same terms).

Also printed: the database file's size. Building the store takes a few minutes at full size
(it is written through the store, as a chat writes it); ``--keep FILE`` builds it once and
reuses it on later runs, so two versions of the code can be compared on the same file.

    .venv/bin/python benchmarks/bench_store_scale.py [--conversations 1000] [--messages 1000]
        [--runs 5] [--keep /tmp/weaver-scale.sqlite] [--quick]

Targets: list < 100 ms, open < 300 ms, search < 200 ms.
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

from benchmarks.bench_open_tree import build_tree  # noqa: E402
from storage.sqlite_store import SqliteConversationStore  # noqa: E402

TARGETS_MS = {"list": 100.0, "open": 300.0, "search": 200.0}
SEARCH_TERMS = "function returns"


def build_store(path: Path, conversations: int, messages: int) -> None:
    started = time.perf_counter()
    with SqliteConversationStore(path) as store:
        for n in range(conversations):
            build_tree(store, messages, seed=n)
            if (n + 1) % 50 == 0:
                elapsed = time.perf_counter() - started
                print(f"  built {n + 1}/{conversations} conversations ({elapsed:.0f} s)",
                      file=sys.stderr)  # fmt: skip


def deepest_conversation(path: Path) -> tuple[str, str]:
    """The first conversation and its deepest record (the leaf the benchmark opens)."""
    with SqliteConversationStore(path) as store:
        conversation = store.list_conversations()[-1]
        index = store.tree_index(conversation.id)
        deepest = max(index, key=lambda rid: index.get(rid).depth)
        store.set_active_leaf(conversation.id, deepest)
        return conversation.id, deepest


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    action()
    return (time.perf_counter_ns() - start) / 1e6


def measure(path: Path, conversation_id: str, runs: int) -> dict[str, tuple[float, float]]:
    from weaver_tui.core.chat_state import ChatState

    def app_list() -> None:
        with SqliteConversationStore(path) as store:
            assert store.list_conversations()

    def app_open() -> None:
        with SqliteConversationStore(path) as store:
            state = ChatState(store, "ide-helper")
            state.open(conversation_id)
            state.path_items()
            state.branch_position()

    def app_search() -> None:
        with SqliteConversationStore(path) as store:
            assert store.search(SEARCH_TERMS)

    def bare(sql: str, *params: object) -> Callable[[], None]:
        def run() -> None:
            conn = sqlite3.connect(path)
            assert conn.execute(sql, params).fetchall()
            conn.close()

        return run

    pairs = {
        "list": (app_list, bare("SELECT * FROM conversations")),
        "open": (app_open, bare("SELECT * FROM messages WHERE conversation_id = ?",
                                conversation_id)),
        "search": (app_search, bare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? "
                                    "LIMIT 50", '"function" "returns"*')),
    }  # fmt: skip
    figures = {}
    for name, (app, base) in pairs.items():
        app_ms = [timed(app) for _ in range(runs)]
        base_ms = [timed(base) for _ in range(runs)]
        figures[name] = (statistics.median(app_ms), statistics.median(base_ms))
    return figures


def report(figures: dict[str, tuple[float, float]], size: int, args: argparse.Namespace) -> str:
    lines = [
        f"store of {args.conversations:,} conversations x {args.messages:,} records "
        f"({size / 2**20:.1f} MiB on disk), median of {args.runs} runs",
    ]
    for name, (app_ms, base_ms) in figures.items():
        target = TARGETS_MS[name]
        lines.append(
            f"  {name:<7} {app_ms:8.1f} ms   baseline {base_ms:7.1f} ms   "
            f"ratio {app_ms / max(base_ms, 0.01):5.1f}x   target < {target:.0f} ms   "
            f"{'PASS' if app_ms < target else 'FAIL'}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the store here once and reuse it")
    parser.add_argument("--quick", action="store_true", help="20 x 100, one run (smoke test)")
    args = parser.parse_args(argv)
    if args.quick:
        args.conversations, args.messages, args.runs = 20, 100, 1
    with tempfile.TemporaryDirectory(prefix="weaver-scale-") as tmp:
        path = args.keep or Path(tmp) / "conversations.sqlite"
        if not path.exists():
            build_store(path, args.conversations, args.messages)
        conversation_id, _ = deepest_conversation(path)
        figures = measure(path, conversation_id, args.runs)
        print(report(figures, path.stat().st_size, args))
    return 0 if all(a < TARGETS_MS[n] for n, (a, _) in figures.items()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
