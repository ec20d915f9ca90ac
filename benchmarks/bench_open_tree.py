"""Opening a conversation of 10,000 records and building its tree, against a bare SELECT.

The conversation is a realistic branched tree, built through the store as a chat would build
it: turns of a user message and a reply of a few hundred characters with provider, model and
usage meta; every few turns a tool round (an assistant tool call and its results); now and
then a regenerated reply or an edited question that starts a branch of its own, and flips
back to an older branch. The measured figure is what the app does to show it: open the
database file, load every record with one query, build the :class:`TreeIndex` and walk the
active path. The baseline, in the same run, is a bare ``sqlite3`` connect and ``SELECT *`` of
the same rows. Also reported: what the chat screen does (``ChatState.open``: the rows, the
lazily decoded branch index, the rows of the active path for the view, the header's branch
position).

    .venv/bin/python benchmarks/bench_open_tree.py [--runs 5] [--records 10000]

Target: < 300 ms.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from storage.sqlite_store import SqliteConversationStore  # noqa: E402

TARGET_MS = 300.0
META = {"provider": "openai", "model": "gpt-4o-mini", "latency_ms": 812,
        "usage": {"input_tokens": 512, "output_tokens": 180, "total_tokens": 692}}  # fmt: skip


def build_tree(store: SqliteConversationStore, records: int, seed: int = 7) -> str:
    """A branched conversation of exactly ``records`` records; returns its id."""
    rng = random.Random(seed)
    conv = store.create_conversation("ide-helper", "A long branched conversation")
    count = 0
    leaf: str | None = None
    forks: list[str] = []

    def add(
        role: str, content: str, parent: str | None, meta: dict[str, object] | None = None
    ) -> str:
        nonlocal count
        count += 1
        return store.add_message(conv.id, role, content, parent, meta).id  # type: ignore[arg-type]

    while count < records:
        user = add(
            "user", f"Question {count}: " + "why does this code do that? " * rng.randint(1, 6), leaf
        )
        parent = user
        if rng.random() < 0.3 and count + 3 <= records:
            call = add("assistant", "", parent, {"tool_calls": [
                {"id": f"call{count}", "name": "read_file", "args": {"path": f"src/mod{count}.py"}}]})  # fmt: skip
            parent = add("tool", "def f():\n    return 42\n" * rng.randint(1, 20), call,
                         {"tool_call_id": f"call{count}", "name": "read_file"})  # fmt: skip
        if count >= records:
            break
        leaf = add(
            "assistant",
            "Because " + "the function returns early. " * rng.randint(4, 40),
            parent,
            META,
        )
        forks.append(user)
        roll = rng.random()
        if roll < 0.08 and count < records:  # regenerate: a sibling reply, and go on from it
            leaf = add(
                "assistant", "Another answer: " + "it depends. " * rng.randint(4, 30), parent, META
            )
        elif roll < 0.12 and count < records:  # edit an earlier question: a new branch there
            old = store.get_message(rng.choice(forks))
            leaf = add("user", "Edited: " + old.content, old.parent_id)
        elif roll < 0.15 and forks:  # go back to an older branch and continue there
            leaf = store.latest_leaf(rng.choice(forks)).id
            store.set_active_leaf(conv.id, leaf)
    return conv.id


def open_and_index(path: Path, conversation_id: str) -> tuple[float, float, int, int]:
    """Time to open, index and show the active path; and, for information, then to decode
    every record (what a view that touched the whole tree would add)."""
    start = time.perf_counter_ns()
    store = SqliteConversationStore(path)
    index = store.tree_index(conversation_id)
    path_len = len(index.active_path())
    elapsed = (time.perf_counter_ns() - start) / 1e6
    for record_id in index:
        index.get(record_id)
    everything = (time.perf_counter_ns() - start) / 1e6
    store.close()
    return elapsed, everything, len(index), path_len


def app_open(path: Path, conversation_id: str) -> float:
    """Time for the chat screen's open of the same conversation, ready to draw."""
    from weaver_tui.core.chat_state import ChatState

    start = time.perf_counter_ns()
    store = SqliteConversationStore(path)
    state = ChatState(store, "ide-helper")
    state.open(conversation_id)
    state.path_items()
    state.branch_position()
    elapsed = (time.perf_counter_ns() - start) / 1e6
    store.close()
    return elapsed


def bare_select(path: Path, conversation_id: str) -> tuple[float, int]:
    start = time.perf_counter_ns()
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT * FROM messages WHERE conversation_id = ?", (conversation_id,)
    ).fetchall()
    elapsed = (time.perf_counter_ns() - start) / 1e6
    conn.close()
    return elapsed, len(rows)


def measure(runs: int = 5, records: int = 10_000) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="weaver-bench-") as tmp:
        path = Path(tmp) / "conversations.sqlite"
        with SqliteConversationStore(path) as store:
            conv_id = build_tree(store, records)
        figures, eager, baselines, app = [], [], [], []
        size = path_len = 0
        for _ in range(runs):
            elapsed, everything, size, path_len = open_and_index(path, conv_id)
            figures.append(elapsed)
            eager.append(everything)
            app.append(app_open(path, conv_id))
            base, rows = bare_select(path, conv_id)
            baselines.append(base)
            assert rows == size == records, (rows, size, records)
    return {"ms": statistics.median(figures), "baseline_ms": statistics.median(baselines),
            "eager_ms": statistics.median(eager), "app_ms": statistics.median(app),
            "records": size, "path": path_len}  # fmt: skip


def report(figures: dict[str, float], runs: int) -> str:
    ms, base = figures["ms"], figures["baseline_ms"]
    return "\n".join([
        f"open a conversation of {figures['records']:,} records and build its tree "
        f"(active path {figures['path']} records): median of {runs} runs",
        f"  open + load + TreeIndex + path  {ms:.1f} ms",
        f"  baseline connect + SELECT *     {base:.1f} ms",
        f"  (info: + decoding every record  {figures['eager_ms']:.1f} ms)",
        f"  the chat screen's open          {figures['app_ms']:.1f} ms"
        f" ({figures['app_ms'] / base:.1f}x the baseline)",
        f"  ratio                           {ms / base:.1f}x",
        f"  target                          < {TARGET_MS:.0f} ms",
        f"  {'PASS' if ms < TARGET_MS else 'FAIL'}",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--records", type=int, default=10_000)
    args = parser.parse_args(argv)
    figures = measure(args.runs, args.records)
    print(report(figures, args.runs))
    return 0 if figures["ms"] < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
