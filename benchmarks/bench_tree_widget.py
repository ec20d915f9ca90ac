"""The conversation-tree browser on a tree of 10,000 records with a 2,000-message active path.

Figures (median of ``--runs``, headless at 120x40):

- ``load``: ``ConversationTree.load`` of all records until the tree is painted;
- ``switch``: ``set_active_path`` to a branch that forks near the root (so the whole main line
  is laid out again) and back, each until painted (target: < 100 ms);
- baseline, same run: a plain Textual ``Tree`` given the same 10,000 records eagerly, one leaf
  per record, until painted: what showing the tree costs without lazy side branches.

    .venv/bin/python benchmarks/bench_tree_widget.py [--runs 5] [--records 10000] [--path 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402
from textual.geometry import Region  # noqa: E402
from textual.strip import Strip  # noqa: E402
from textual.widgets import Tree  # noqa: E402

from storage.models import MessageRecord  # noqa: E402
from weaver_tui.widgets.conversation_tree import ConversationTree  # noqa: E402

SIZE = (120, 40)
SWITCH_TARGET_MS = 100.0


def generate(total: int, path_length: int, seed: int = 7) -> tuple[list[MessageRecord], str, str]:
    """Records of one conversation, its active leaf, and a leaf of a branch near the root."""
    rng = random.Random(seed)
    records: list[MessageRecord] = []
    versions: dict[str | None, int] = {}
    clock = datetime(2026, 1, 1, tzinfo=UTC)

    def add(role: str, parent: MessageRecord | None, text: str) -> MessageRecord:
        nonlocal clock
        parent_id = parent.id if parent else None
        versions[parent_id] = versions.get(parent_id, 0) + 1
        clock += timedelta(seconds=1)
        record = MessageRecord(
            id=f"m{len(records)}",
            conversation_id="bench",
            role=role,  # type: ignore[arg-type]
            content=text,
            parent_id=parent_id,
            depth=parent.depth + 1 if parent else 0,
            version=versions[parent_id],
            created_at=clock,
            meta={"provider": "offline", "model": "offline"},
        )
        records.append(record)
        return record

    path: list[MessageRecord] = []
    parent: MessageRecord | None = None
    for i in range(path_length):
        role = "user" if i % 2 == 0 else "assistant"
        parent = add(role, parent, f"{role} turn {i}: " + "some words of the message " * 4)
        path.append(parent)
    side_leaf = None
    while len(records) < total:
        start = 1 if side_leaf is None else rng.randrange(0, path_length - 1)
        branch: MessageRecord | None = path[start]
        for j in range(min(rng.randint(1, 40), total - len(records))):
            branch = add("assistant" if (start + j) % 2 == 0 else "user", branch, f"side {j}")
        side_leaf = side_leaf or branch
    assert side_leaf is not None
    return records, path[-1].id, side_leaf.id


class PaintClock:
    """Mixed into a tree: notes when it first draws lines after :meth:`start`, so "until
    painted" ends at that paint, not at the end of the pilot's idle wait (>= 20 ms of sleep)."""

    painted_at: float | None = None

    def start(self) -> float:
        self.painted_at = None
        return time.perf_counter()

    def render_lines(self, crop: Region) -> list[Strip]:
        strips: list[Strip] = super().render_lines(crop)  # type: ignore[misc]
        if self.painted_at is None:
            self.painted_at = time.perf_counter()
        return strips

    def elapsed(self, start: float) -> float:
        assert self.painted_at is not None, "nothing was painted"
        return self.painted_at - start


class TimedTree(PaintClock, ConversationTree):
    pass


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TimedTree(id="tree")


class TimedPlainTree(PaintClock, Tree[str]):
    pass


class PlainTreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TimedPlainTree("conversation", id="tree")


async def measure_tree(
    records: list[MessageRecord], leaf: str, side: str
) -> tuple[float, float, float]:
    """(load until painted, switch until laid out, switch until painted), in seconds."""
    app = TreeApp()
    async with app.run_test(size=SIZE) as pilot:
        tree = app.query_one(TimedTree)
        await pilot.pause()
        start = tree.start()
        tree.load(records, leaf)
        await pilot.pause()
        load = tree.elapsed(start)
        layout = painted = 0.0
        for target in (side, leaf):
            start = tree.start()
            tree.set_active_path(target)
            layout += time.perf_counter() - start
            await pilot.pause()
            painted += tree.elapsed(start)
        assert tree.selected_message_id == leaf
    return load, layout / 2, painted / 2


async def measure_plain(records: list[MessageRecord]) -> float:
    app = PlainTreeApp()
    async with app.run_test(size=SIZE) as pilot:
        tree = app.query_one(TimedPlainTree)
        await pilot.pause()
        start = tree.start()
        for record in records:
            tree.root.add_leaf(f"{record.role}: {record.content[:60]}", record.id)
        tree.root.expand()
        await pilot.pause()
        return tree.elapsed(start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--path", type=int, default=2_000)
    args = parser.parse_args()
    records, leaf, side = generate(args.records, args.path)
    loads, layouts, switches, plains = [], [], [], []
    for _ in range(args.runs):
        load, layout, switch = asyncio.run(measure_tree(records, leaf, side))
        loads.append(load)
        layouts.append(layout)
        switches.append(switch)
        plains.append(asyncio.run(measure_plain(records)))
    load_ms, layout_ms, switch_ms, plain_ms = (
        statistics.median(values) * 1000 for values in (loads, layouts, switches, plains)
    )
    print(f"records {len(records)}, active path {args.path}, runs {args.runs} (median)")
    print(f"ConversationTree load + paint:  {load_ms:8.1f} ms")
    print(f"baseline plain Tree, eager:     {plain_ms:8.1f} ms  (ratio {load_ms / plain_ms:.2f})")
    print(f"switch branch, layout only:     {layout_ms:8.1f} ms")
    verdict = "ok" if switch_ms < SWITCH_TARGET_MS else "MISSED"
    print(
        f"switch branch + paint:          {switch_ms:8.1f} ms"
        f"  (target < {SWITCH_TARGET_MS:.0f} ms: {verdict})"
    )


if __name__ == "__main__":
    main()
