"""A long Markdown reply through the whole app, against the runtime alone.

Why: the message view's own benchmark (``bench_ui_stream.py``) feeds text straight into the
view; this one measures what the user gets: the real ``WeaverApp`` (chat screen, turn worker,
token coalescing, tree, tool pane, header, SQLite flushes) receiving a reply over real HTTP.

Each run is a fresh process (so the peak RSS is that run's own) that first sends a one-line
warm-up message (runtime opened, connection made), then the measured one:

  figure    send (Enter pressed) -> the first frame on which the turn is over and the reply's
            last token is drawn in the view (see ``_app_harness``: frames are observed where
            Textual hands them to the driver)
  baseline  ``AgentRuntime.run_turn`` alone in a fresh process, same server, same run: user
            record stored -> ``RunFinished`` consumed

1. 20,000 tokens (prose, lists, code fences, quotes) at full speed: ratio target <= 1.2x; the
   app process's peak RSS after the reply: target < 150 MiB.
2. 10,000 tokens paced at 5,000 tokens/s (``--rate``, ``--paced-tokens``): the lag between the
   server's last byte and the last token on screen, in the app and in the runtime alone. On a
   2-core machine the runtime alone may not keep up with 5,000 tokens/s (its own lag is then
   seconds); the view keeps up when it adds at most 0.25 s (a few frames) to the runtime's
   lag, i.e. no backlog builds in the view. Figure: the lag the app adds; baseline: the
   runtime's own lag.

    .venv/bin/python benchmarks/bench_app_stream.py [--runs 5] [--tokens 20000]
        [--rate 5000] [--paced-tokens 10000] [--quick]

``--profile FILE`` writes a ``cProfile`` of the app's event loop over the (last) full-speed reply.
``--quick`` (the smoke test): 300 tokens, one run, no warm-up child, no runtime baseline for
part 2, and one process: the runtime alone's reply first (its peak RSS taken before the app is
imported), then the app's two replies (full speed, then paced).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _app_harness import (
    PROFILE,
    ROOT,
    SIZE,
    StampingServer,
    bench_prompt,
    bounded,
    build_services,
    child_args,
    child_env,
    emit,
    median,
    peak_rss_mib,
    ready,
    reply_on_screen,
    report,
    run_child_lines,
    send_and_wait,
    stamped_app_class,
)

RATIO_TARGET = 1.2
RSS_TARGET_MIB = 150.0
LAG_TARGET_S = 0.25
PROFILE_ENV = "BENCH_APP_PROFILE"


# -- children ----------------------------------------------------------------------------------


async def child_app(replies: list[tuple[int, float]]) -> None:
    """One app: a warm-up message, then each reply (tokens, rate) measured in turn, with the
    process's peak RSS after it (after the last one: once the app has exited)."""
    app = stamped_app_class()(build_services(), profile=PROFILE)
    results: list[dict[str, float]] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app)
        await send_and_wait(pilot, screen, "hello")
        for tokens, rate in replies:
            screen.composer.load_text(bench_prompt(tokens, rate))
            previous = screen.turn
            shown = app.when_painted(lambda previous=previous: reply_on_screen(screen, previous))
            profile = _start_profile(tokens, rate)
            started = time.monotonic()
            await pilot.press("enter")
            on_screen = await bounded(shown)
            _stop_profile(profile)
            results.append(
                {
                    "elapsed": on_screen - started,
                    "done_at": on_screen,
                    "frames": app.frames,
                    "peak_rss_mib": peak_rss_mib(),
                }
            )
    results[-1]["peak_rss_mib"] = peak_rss_mib()
    for result in results:
        emit(result)


def _start_profile(tokens: int, rate: float) -> Any:
    """``--profile FILE``: the app child profiles the event loop's thread over the full-speed
    reply (``cProfile``), for finding where the app's time goes."""
    if (
        not os.environ.get(PROFILE_ENV)
        or rate > 0
        or tokens != int(os.environ[PROFILE_ENV + "_TOKENS"])
    ):
        return None
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    return profile


def _stop_profile(profile: Any) -> None:
    if profile is not None:
        profile.disable()
        profile.dump_stats(os.environ[PROFILE_ENV])


async def child_runtime(tokens: int, rate: float) -> None:
    from agents.runtime.events import RunError, RunFinished

    services = build_services()
    store = services.store
    conversation = store.create_conversation(PROFILE, "bench")

    async def turn(text: str, parent: str | None) -> tuple[str, float]:
        user = store.add_message(conversation.id, "user", text, parent)
        leaf = user.id
        async for event in runtime.run_turn(
            conversation_id=conversation.id, user_message_id=user.id, model=services.model
        ):
            if isinstance(event, RunError):
                raise SystemExit(f"runtime failed: {event.error.user_message}")
            if isinstance(event, RunFinished):
                leaf = event.leaf_id or leaf
        return leaf, time.monotonic()

    async with services.runtime() as runtime:
        leaf, _ = await turn("hello", None)
        started = time.monotonic()
        _, done = await turn(bench_prompt(tokens, rate), leaf)
    await services.aclose()
    emit({"elapsed": done - started, "done_at": done})


async def child_runtime_then_app(replies: list[tuple[int, float]]) -> None:
    """``--quick``: the runtime alone's reply (the first of ``replies``) with this process's
    peak RSS before the app is imported, then the app's ``replies`` as :func:`child_app`."""
    await child_runtime(*replies[0])
    await child_app(replies)


# -- parent ------------------------------------------------------------------------------------


def measure(
    server: StampingServer, mode: str, tokens: int, rate: float, tmp: Path, run: int
) -> dict[str, float]:
    """One reply of ``tokens`` at ``rate`` in a fresh process."""
    return measure_in_one_process(server, mode, [(tokens, rate)], tmp, run)[0]


def measure_in_one_process(
    server: StampingServer, mode: str, replies: list[tuple[int, float]], tmp: Path, run: int
) -> list[dict[str, float]]:
    """Each reply (tokens, rate) in turn in one fresh process, with its lag: when its last
    token was on screen (or ``RunFinished``) after the server wrote its last byte."""
    data_dir = tmp / f"{mode}-{'-'.join(f'{t}-{r}' for t, r in replies)}-{run}"
    args = [mode, *(str(value) for reply in replies for value in reply)]
    env = child_env(data_dir, server.base_url)
    results: list[dict[str, float]] = run_child_lines(__file__, args, env, ROOT)[-len(replies) :]
    last_bytes = server.last_bytes[-len(replies) :]  # the child's measured replies came last
    for result, last_byte in zip(results, last_bytes, strict=True):
        result["lag"] = result["done_at"] - last_byte
    return results


def _runs(results: list[dict[str, float]]) -> str:
    return ", ".join(f"{r['elapsed']:.2f}" for r in results)


Runs = list[dict[str, float]]


def measure_runs(
    server: StampingServer, tmp: Path, runs: int, tokens: int, paced_tokens: int, rate: float
) -> tuple[Runs, Runs, Runs, Runs]:
    """Each run's app and runtime-alone children: the full-speed reply, then the paced one.
    Not counted: a first child that compiles the bytecode every later one imports (its peak
    RSS is ~15 MiB higher), as a first launch after installing would."""
    measure(server, "app", min(tokens, 300), 0.0, tmp, -1)
    apps, bases, paced, paced_bases = [], [], [], []
    for run in range(runs):
        apps.append(measure(server, "app", tokens, 0.0, tmp, run))
        bases.append(measure(server, "runtime", tokens, 0.0, tmp, run))
    for run in range(runs):
        paced.append(measure(server, "app", paced_tokens, rate, tmp, run))
        paced_bases.append(measure(server, "runtime", paced_tokens, rate, tmp, run))
    return apps, bases, paced, paced_bases


def measure_quick(
    server: StampingServer, tmp: Path, tokens: int, paced_tokens: int, rate: float
) -> tuple[Runs, Runs, Runs, Runs]:
    """``--quick``: one child, no warm-up child: the runtime alone's full-speed reply, then the
    app's two (full speed, then paced), each with its lag as in :func:`measure_in_one_process`."""
    replies = [(tokens, 0.0), (paced_tokens, rate)]
    args = ["runtime,app", *(str(value) for reply in replies for value in reply)]
    env = child_env(tmp / "runtime-then-app", server.base_url)
    base, app, paced = run_child_lines(__file__, args, env, ROOT)[-3:]
    for result, last_byte in zip((app, paced), server.last_bytes[-2:], strict=True):
        result["lag"] = result["done_at"] - last_byte  # the app's replies came last
    return [app], [base], [paced], []


def main(runs: int, tokens: int, paced_tokens: int, rate: float, *, quick: bool = False) -> bool:
    ok: bool = True
    with StampingServer() as server, tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if quick:
            apps, bases, paced, paced_base = measure_quick(server, tmp, tokens, paced_tokens, rate)
        else:
            apps, bases, paced, paced_base = measure_runs(
                server, tmp, runs, tokens, paced_tokens, rate
            )
        app_s = median([r["elapsed"] for r in apps])
        base_s = median([r["elapsed"] for r in bases])
        ratio = app_s / base_s
        ok &= report(
            f"{tokens:,}-token Markdown reply at full speed, send -> last token on screen "
            f"(median of {runs}; fresh process each)",
            f"app {app_s:.3f} s  (runs: {_runs(apps)})",
            f"AgentRuntime.run_turn alone {base_s:.3f} s (runs: {_runs(bases)})",
            ratio,
            f"<= {RATIO_TARGET}x",
            ratio <= RATIO_TARGET,
        )
        rss = [r["peak_rss_mib"] for r in apps]
        ok &= report(
            f"peak RSS of the app process after the {tokens:,}-token reply (median of {runs})",
            f"{median(rss):.1f} MiB  (max {max(rss):.1f})",
            f"runtime-alone process {median([r['peak_rss_mib'] for r in bases]):.1f} MiB",
            median(rss) / median([r["peak_rss_mib"] for r in bases]),
            f"< {RSS_TARGET_MIB:.0f} MiB",
            median(rss) < RSS_TARGET_MIB,
        )
        lag = median([r["lag"] for r in paced])
        base_lag = median([r["lag"] for r in paced_base]) if paced_base else 0.0
        added = lag - base_lag
        stream_s = paced_tokens / rate
        lags = ", ".join(f"{r['lag'] * 1000:.0f}" for r in paced)
        base_lags = ", ".join(f"{r['lag'] * 1000:.0f}" for r in paced_base)
        ok &= report(
            f"{paced_tokens:,} tokens paced at {rate:,.0f} tok/s ({stream_s:.1f} s of stream): "
            f"lag from the server's last byte to the reply's end (median of {runs}); does the "
            f"view keep up?",
            f"lag the view adds {added * 1000:.0f} ms  (app: last token on screen "
            f"{lag * 1000:.0f} ms after the last byte; runs: {lags} ms)",
            f"runtime alone: RunFinished {base_lag * 1000:.0f} ms after the last byte "
            f"(runs: {base_lags} ms)"
            if paced_base
            else "runtime alone not measured (--quick): the app's whole lag is counted",
            None,
            f"the view adds <= {LAG_TARGET_S * 1000:.0f} ms (keeps up with {rate:,.0f} tok/s)",
            added <= LAG_TARGET_S,
        )
    return ok


if __name__ == "__main__":
    if "--child" in sys.argv:
        (mode, *values), _ = child_args(sys.argv)
        replies = [(int(t), float(r)) for t, r in zip(values[::2], values[1::2], strict=True)]
        if mode == "app":
            asyncio.run(child_app(replies))
        elif mode == "runtime":
            asyncio.run(child_runtime(*replies[0]))
        else:  # "runtime,app" (--quick): the runtime alone's first reply, then the app's
            asyncio.run(child_runtime_then_app(replies))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=20_000, help="the full-speed reply")
    parser.add_argument("--rate", type=float, default=5_000.0, help="tokens/s of part 2")
    parser.add_argument("--paced-tokens", type=int, default=10_000, help="tokens of part 2")
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, one run, no warm-up (smoke test)"
    )
    parser.add_argument(
        "--profile", type=Path, help="write the app's cProfile of the full-speed reply here"
    )
    args = parser.parse_args()
    if args.profile:
        os.environ[PROFILE_ENV] = str(args.profile.resolve())
        os.environ[PROFILE_ENV + "_TOKENS"] = str(args.tokens)
    if args.quick:
        passed = main(1, 300, 300, args.rate, quick=True)
    else:
        passed = main(args.runs, args.tokens, args.paced_tokens, args.rate)
    sys.exit(0)
