"""Key presses answered while a 500 tokens/s reply streams.

A key bound on the host app stamps the time its handler runs; the latency is from just before
``pilot.press`` to that stamp, for ``--presses`` presses spaced ``--gap`` seconds apart while a
Markdown reply that already holds ``--prefill`` tokens streams on at ``--rate`` tokens/s. The
time to the end of the next screen refresh after the handler (the answer painted) is reported
too. Baseline in the same run: the same presses while the same stream goes into Textual's
``Markdown`` through ``MarkdownStream`` (what oterm does), and, for the floor, the same
presses with no stream at all.

    .venv/bin/python benchmarks/bench_ui_keys.py [--runs 5] [--presses 60]

Target: p95 < 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from _ui_harness import (
    SIZE,
    MarkdownApp,
    ViewApp,
    markdown_reply,
    median,
    paced,
    percentile,
    report,
)
from textual.app import App
from textual.pilot import Pilot

from weaver_tui.widgets.message_view import MessageItem

TARGET_P95_MS = 50.0


async def _press_while(
    app: ViewApp | MarkdownApp,
    pilot: Pilot[Any],
    stream: Callable[[], Coroutine[Any, Any, object]] | None,
    presses: int,
    gap: float,
) -> list[tuple[float, float]]:
    """(handler, painted) latencies of ``presses`` presses made while ``stream`` runs."""
    task = asyncio.create_task(stream()) if stream is not None else None
    await asyncio.sleep(0.3)
    latencies = []
    for _ in range(presses):
        before = len(app.painted)
        start = time.perf_counter()
        await pilot.press("f9")
        deadline = start + 10.0
        while len(app.painted) == before:  # a paint is stamped, not signalled: poll
            if time.perf_counter() > deadline:
                raise RuntimeError("a key press was never answered: is its binding shadowed?")
            await asyncio.sleep(0.001)
        latencies.append((app.stamps[-1] - start, app.painted[-1] - start))
        await asyncio.sleep(gap)
    if task is not None:
        task.cancel()
    return latencies


async def view_latencies(
    tokens: list[str], rate: float, presses: int, gap: float, prefill: list[str]
) -> list[tuple[float, float]]:
    app = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.view
        view.start_message(MessageItem(id="r", role="assistant"))
        view.append_text("r", "".join(prefill))
        await pilot.pause(0.1)

        async def write(token: str) -> None:
            view.append_text("r", token)

        return await _press_while(app, pilot, lambda: paced(tokens, rate, write), presses, gap)


async def markdown_latencies(
    tokens: list[str], rate: float, presses: int, gap: float, prefill: list[str]
) -> list[tuple[float, float]]:
    app = MarkdownApp()
    async with app.run_test(size=SIZE) as pilot:
        widget = await app.add_markdown("".join(prefill))
        await pilot.pause()
        stream = widget.get_stream(widget)
        chat = app.query_one("#chat")
        chat.anchor()

        async def write(token: str) -> None:
            await stream.write(token)

        return await _press_while(app, pilot, lambda: paced(tokens, rate, write), presses, gap)


async def idle_latencies(presses: int, gap: float) -> list[tuple[float, float]]:
    app: App[None] = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        return await _press_while(app, pilot, None, presses, gap)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--gap", type=float, default=0.05)
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--prefill", type=int, default=2000)
    args = parser.parse_args()
    reply = markdown_reply(args.prefill + int(args.rate * (args.presses * (args.gap + 0.05) + 2)))
    prefill, tokens = reply[: args.prefill], reply[args.prefill :]

    def summary(runs: list[list[tuple[float, float]]], which: int) -> tuple[float, float]:
        return (
            median([percentile([r[which] for r in run], 0.5) for run in runs]) * 1000,
            median([percentile([r[which] for r in run], 0.95) for run in runs]) * 1000,
        )

    def line(runs: list[list[tuple[float, float]]]) -> str:
        (h50, h95), (p50, p95) = summary(runs, 0), summary(runs, 1)
        return f"handler p50 {h50:.1f} / p95 {h95:.1f} ms, painted p50 {p50:.1f} / p95 {p95:.1f} ms"

    view = [
        asyncio.run(view_latencies(tokens, args.rate, args.presses, args.gap, prefill))
        for _ in range(args.runs)
    ]
    baseline_runs = max(1, min(3, args.runs))
    markdown = [
        asyncio.run(markdown_latencies(tokens, args.rate, args.presses, args.gap, prefill))
        for _ in range(baseline_runs)
    ]
    idle = [asyncio.run(idle_latencies(args.presses, args.gap)) for _ in range(args.runs)]
    view_p95 = summary(view, 0)[1]
    md_p95 = summary(markdown, 0)[1]
    print(
        f"{args.presses} presses every {args.gap * 1000:.0f} ms while a reply that already holds "
        f"{args.prefill:,} tokens streams on at {args.rate:,.0f} tok/s, 120x40, "
        f"median of {args.runs} runs' percentiles\n"
    )
    report(
        "key press answered while streaming (pilot.press to the handler; and to the next paint)",
        f"MessageView {line(view)}",
        f"Markdown + MarkdownStream {line(markdown)} (median of {baseline_runs}); "
        f"no stream {line(idle)}",
        md_p95 / view_p95 if view_p95 else 0.0,
        f"handler p95 < {TARGET_P95_MS:.0f} ms",
        view_p95 < TARGET_P95_MS,
    )


if __name__ == "__main__":
    main()
