"""A 20,000-token Markdown reply streamed into the message view.

Three measurements in one run, headless at 120x40:

1. Full speed: every token is appended as soon as the previous one was (one event-loop turn
   each, as tokens from a worker arrive), then the time until the last token is on screen.
   Baseline in the same run: the same appends into a plain Python string (the "runtime alone"
   stand-in: all a UI-less client does per token). Second baseline: Textual's ``Markdown`` +
   ``MarkdownStream`` on 2,000 tokens of the same reply, scaled x10 (its cost grows faster
   than linearly, so scaling flatters it).
2. Paced at 5,000 tokens/s: how far behind the last token appears (lag), which says whether
   the view keeps up. Target: keeps up (lag < 250 ms, i.e. under two frames of coalescing
   plus a render).

    .venv/bin/python benchmarks/bench_ui_stream.py [--runs 5] [--tokens 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import Any

from _ui_harness import (
    SIZE,
    MarkdownApp,
    ViewApp,
    markdown_reply,
    median,
    paced,
    peak_rss_mib,
    report,
)
from textual.pilot import Pilot

from weaver_tui.widgets.message_view import MessageItem

RUNTIME_US_PER_TOKEN = 240
"""Cost per token of the real runtime (compiled graph over ChatOpenAI), as ``bench_stream_runtime.py`` measures it."""


async def _view_on_screen(app: ViewApp, pilot: Pilot[Any], last: str) -> None:
    app.view.finish_message("r", "complete")
    await pilot.pause()
    tail = " ".join(app.view.visible_text())
    assert last.strip() in tail, f"last token {last!r} not on screen"


async def view_full_speed(tokens: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) until the last token is on screen."""
    app = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.view
        view.start_message(MessageItem(id="r", role="assistant"))
        start, cpu = time.perf_counter(), time.process_time()
        for token in tokens:
            view.append_text("r", token)
            await asyncio.sleep(0)
        await _view_on_screen(app, pilot, tokens[-1])
        return time.perf_counter() - start, time.process_time() - cpu


async def string_full_speed(tokens: list[str]) -> tuple[float, float]:
    app = ViewApp()
    async with app.run_test(size=SIZE):
        text = ""
        start, cpu = time.perf_counter(), time.process_time()
        for token in tokens:
            text += token
            await asyncio.sleep(0)
        assert text.endswith(tokens[-1])
        return time.perf_counter() - start, time.process_time() - cpu


async def markdown_stream_full_speed(tokens: list[str]) -> float:
    app = MarkdownApp()
    async with app.run_test(size=SIZE) as pilot:
        widget = await app.add_markdown()
        stream = widget.get_stream(widget)
        start = time.perf_counter()
        for token in tokens:
            await stream.write(token)
        await stream.stop()
        app.query_one("#chat").scroll_end(animate=False)
        await pilot.pause()
        return time.perf_counter() - start


async def view_paced_lag(tokens: list[str], rate: float) -> tuple[float, float]:
    """(lag of the last token in seconds, share of one core the process used meanwhile)."""
    app = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.view
        view.start_message(MessageItem(id="r", role="assistant"))

        async def write(token: str) -> None:
            view.append_text("r", token)

        start, cpu = time.perf_counter(), time.process_time()
        last_due = await paced(tokens, rate, write)
        await _view_on_screen(app, pilot, tokens[-1])
        end = time.perf_counter()
        return end - last_due, (time.process_time() - cpu) / (end - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=20_000)
    parser.add_argument("--rate", type=float, default=5_000)
    args = parser.parse_args()
    tokens = markdown_reply(args.tokens)
    small = tokens[: args.tokens // 10]
    scale = len(tokens) / len(small)

    view_runs = [asyncio.run(view_full_speed(tokens)) for _ in range(args.runs)]
    view_rss = peak_rss_mib()  # the view runs came first: this is their peak
    plain_runs = [asyncio.run(string_full_speed(tokens)) for _ in range(args.runs)]
    view, view_cpu = median([w for w, _ in view_runs]), median([c for _, c in view_runs])
    plain, plain_cpu = median([w for w, _ in plain_runs]), median([c for _, c in plain_runs])
    baseline_runs = max(1, min(3, args.runs))
    md = median([asyncio.run(markdown_stream_full_speed(small)) for _ in range(baseline_runs)])
    paced_runs = [asyncio.run(view_paced_lag(tokens, args.rate)) for _ in range(args.runs)]
    lag, load = median([lag for lag, _ in paced_runs]), median([load for _, load in paced_runs])

    chars = sum(map(len, tokens))
    view_us = (view_cpu - plain_cpu) / len(tokens) * 1e6
    projected = 1 + view_us / RUNTIME_US_PER_TOKEN
    print(f"{len(tokens):,} tokens, {chars:,} characters, 120x40, median of {args.runs}")
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    report(
        "last token on screen, full speed",
        f"MessageView {view:.2f} s wall ({len(tokens) / view:,.0f} tok/s), "
        f"{view_cpu:.2f} s CPU ({len(tokens) / view_cpu:,.0f} tok/s of CPU), "
        f"{view_us:.0f} us CPU/token over the plain string",
        f"plain string appends {plain:.2f} s wall, {plain_cpu:.2f} s CPU",
        view / plain,
        "keeps up with 5,000 tok/s (< 4.0 s for 20,000 tokens, CPU time; wall time is"
        " inflated when the 2 cores are shared)",
        view_cpu < len(tokens) / 5_000,
    )
    print(f"  peak RSS after the reply: {view_rss:.0f} MiB (issue target < 150 MiB)")
    print(
        f"  projected with the runtime ({RUNTIME_US_PER_TOKEN} us/token): "
        f"{projected:.2f}x runtime alone (issue target <= 1.2x)\n"
    )
    report(
        "vs Textual Markdown + MarkdownStream",
        f"MessageView {view:.2f} s for {len(tokens):,} tokens",
        f"MarkdownStream {md:.2f} s for {len(small):,} tokens, x{scale:.0f} = {md * scale:.1f} s"
        f" (median of {baseline_runs})",
        md * scale / view,
        "faster than the widget-per-block baseline",
        view < md * scale,
    )
    print()
    report(
        f"paced at {args.rate:,.0f} tok/s: last token on screen after it arrived",
        f"lag {lag * 1000:.0f} ms; the process used {load:.0%} of one core meanwhile",
        f"stream length {len(tokens) / args.rate:.1f} s",
        lag / (1 / 30),
        "lag < 250 ms (ratio is in 30 Hz frames)",
        lag < 0.25,
    )


if __name__ == "__main__":
    main()
