"""Opening a 2,000-message path in the message view: first paint and peak memory.

Each measurement runs in a fresh subprocess (so peak RSS belongs to that case alone):

- ``view``: a mounted ``MessageView`` gets ``set_messages`` with 2,000 finished messages
  (prose, lists, code fences); the figure is the time until the last message is painted.
- ``markdown``: the baseline, one Textual ``Markdown`` widget per message mounted into a
  ``VerticalScroll`` (what oterm/elia do), capped at ``--baseline-count`` (200) messages so it
  finishes, and scaled to 2,000 (its cost grows at least linearly).
- ``empty``: the same host app with nothing in it, for the memory floor.

    .venv/bin/python benchmarks/bench_ui_history.py [--runs 5] [--count 2000]

Target: first paint < 1 s. Also printed: switching to another branch of the same length.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from _ui_harness import (
    SIZE,
    MarkdownApp,
    ViewApp,
    history_items,
    median,
    peak_rss_mib,
    report,
)
from textual.app import App

TARGET_S = 1.0


def _watch_paints(app: App[None]) -> list[float]:
    """Times at which the screen finished a refresh (a frame was composed and written)."""
    paints: list[float] = []
    screen = app.screen
    refresh = screen._compositor_refresh

    def stamped() -> None:
        refresh()
        paints.append(time.perf_counter())

    screen._compositor_refresh = stamped  # type: ignore[method-assign]
    return paints


async def view_case(count: int) -> dict[str, float]:
    items = history_items(count)
    app = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        paints = _watch_paints(app)
        start = time.perf_counter()
        app.view.set_messages(items)
        await pilot.pause()
        elapsed = time.perf_counter() - start
        first_paint = paints[0] - start
        assert f"End of answer {count - 1}." in "\n".join(app.view.visible_text())
        blocks = app.view.cached_block_count
        # Switching branch: the same path up to the middle, then another branch.
        other = items[: count // 2] + history_items(count, seed=99)[count // 2 :]
        start = time.perf_counter()
        app.view.set_messages(other)
        await pilot.pause()
        switch = time.perf_counter() - start
        return {
            "first_paint": first_paint,
            "seconds": elapsed,
            "rss": peak_rss_mib(),
            "blocks": blocks,
            "switch": switch,
        }


async def markdown_case(count: int) -> dict[str, float]:
    items = history_items(count)
    app = MarkdownApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        chat = app.query_one("#chat")
        from textual.widgets import Markdown

        await chat.mount_all([Markdown(item.content) for item in items])
        chat.scroll_end(animate=False)
        await pilot.pause()
        elapsed = time.perf_counter() - start
        return {"first_paint": elapsed, "seconds": elapsed, "rss": peak_rss_mib(), "blocks": 0}


async def empty_case(count: int) -> dict[str, float]:
    app = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        return {"seconds": 0.0, "rss": peak_rss_mib(), "blocks": 0}


CASES = {"view": view_case, "markdown": markdown_case, "empty": empty_case}


def run_case(case: str, count: int) -> dict[str, float]:
    """Run one case in a fresh interpreter and return its JSON result."""
    output = subprocess.run(
        [sys.executable, str(Path(__file__)), "--case", case, "--count", str(count)],
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    ).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--baseline-count", type=int, default=200)
    parser.add_argument("--case", choices=sorted(CASES))
    args = parser.parse_args()
    if args.case:
        print(json.dumps(asyncio.run(CASES[args.case](args.count))))
        return

    view = [run_case("view", args.count) for _ in range(args.runs)]
    baseline_runs = max(1, min(3, args.runs))
    markdown = [run_case("markdown", args.baseline_count) for _ in range(baseline_runs)]
    empty = [run_case("empty", 0) for _ in range(args.runs)]
    scale = args.count / args.baseline_count
    view_s, view_rss = median([r["first_paint"] for r in view]), median([r["rss"] for r in view])
    settled = median([r["seconds"] for r in view])
    md_s, md_rss = median([r["seconds"] for r in markdown]), median([r["rss"] for r in markdown])
    empty_rss = median([r["rss"] for r in empty])
    blocks = median([r["blocks"] for r in view])
    switch = median([r["switch"] for r in view])
    print(f"{args.count:,}-message path, 120x40, fresh process per run, median of {args.runs}\n")
    report(
        "open the path: set_messages to the first frame painted with the last message",
        f"MessageView {view_s * 1000:.0f} ms, peak RSS {view_rss:.0f} MiB "
        f"({view_rss - empty_rss:.0f} MiB over an empty app), {blocks:.0f} blocks rendered",
        f"{args.baseline_count} Markdown widgets {md_s:.2f} s, peak RSS {md_rss:.0f} MiB "
        f"(median of {baseline_runs}); x{scale:.0f} = {md_s * scale:.1f} s, "
        f"~{empty_rss + (md_rss - empty_rss) * scale:.0f} MiB; empty app {empty_rss:.0f} MiB",
        md_s * scale / view_s if view_s else 0.0,
        f"first paint < {TARGET_S:.0f} s",
        view_s < TARGET_S,
    )
    print(
        f"  settled (first paint, then the screens above and below prefetched): "
        f"{settled * 1000:.0f} ms"
    )
    print(
        f"  switching to another {args.count:,}-message branch: {switch * 1000:.0f} ms "
        f"(issue target < 100 ms for the view's part of a branch switch)"
    )


if __name__ == "__main__":
    main()
