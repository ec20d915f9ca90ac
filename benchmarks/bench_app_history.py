"""Opening a 2,000-message path in a 10,000-record tree in the whole app, and switching branch
near its bottom.

Why: elia needs 8.5 s and oterm 115 s / 1.1 GiB to open such a conversation, because every
message becomes widgets. The view's own benchmark (``bench_ui_history.py``) hands it ready
items; this one launches the real ``WeaverApp`` with ``conversation_id`` (the CLI's
``--conversation``) on a real SQLite file, so it pays for the store, the tree index, the
tree pane, the chat state and the first render of the view. It launches the way the
``weaver-tui --conversation ID`` command does (``cli_services``): the chat screen's skeleton
first, the settings validated after it.

The conversation is written through the store: a 2,000-message active path of questions and
Markdown answers (prose, lists, code fences), and regenerated replies along it whose own
continuations make up the rest of the 10,000 records; one sits 9 messages from the bottom.
Each run is a fresh process on a fresh copy of the file:

  first paint  parent spawns the process -> the first frame on which the view shows the last
               message's final line (target < 1 s); baseline: the same launch on an empty
               conversation, same run
  switch       ``ChatScreen.flip_version`` on the message near the bottom (to its sibling and
               back, twice) -> the first frame showing the other version (target < 100 ms)
  memory       the process's peak RSS after the switches (target < 150 MiB)

    .venv/bin/python benchmarks/bench_app_history.py [--runs 5] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
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
    bounded,
    chat_screen,
    child_args,
    child_env,
    cli_services,
    emit,
    median,
    peak_rss_mib,
    report,
    run_child,
    stamped_app_class,
    view_shows,
    wait_until,
)

FIRST_PAINT_TARGET_S = 1.0
SWITCH_TARGET_MS = 100.0
RSS_TARGET_MIB = 150.0
FLIP_DEPTH = 9
"""How far from the bottom of the path the switched message sits."""
META = {"provider": "openai-compatible", "model": "fake-model", "latency_ms": 812,
        "usage": {"input_tokens": 512, "output_tokens": 180, "total_tokens": 692}}  # fmt: skip


def start_tag(i: int) -> str:
    return f"Answer {i} begins."


def end_tag(i: int) -> str:
    return f"End of answer {i}."


def version_tag(i: int) -> str:
    return f"Version 2 of answer {i} begins."


def build_history(db: Path, path_len: int, total: int, seed: int = 5) -> dict[str, Any]:
    """Write the branched conversation; return its id and the message to flip."""
    from _ui_harness import WORDS, markdown_reply

    from storage.sqlite_store import SqliteConversationStore

    rng = random.Random(seed)

    def question(i: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 30))).capitalize() + "?"

    def answer(i: int, first: str) -> str:
        body = "".join(markdown_reply(rng.randint(40, 220), seed=i))
        return f"{first}\n\n{body}\n\n{end_tag(i)}"

    store = SqliteConversationStore(db)
    conv = store.create_conversation(PROFILE, "A long branched conversation")
    main: list[str] = []
    parent: str | None = None
    for i in range(path_len):
        if i % 2 == 0:
            record = store.add_message(conv.id, "user", f"{question(i)} ({i})", parent)
        else:
            record = store.add_message(conv.id, "assistant", answer(i, start_tag(i)), parent, META)
        parent = record.id
        main.append(record.id)
    count = path_len
    flip_at = path_len - FLIP_DEPTH
    points = [flip_at] + [i for i in range(1, path_len - 1, 2) if i != flip_at]
    rng.shuffle(points[1:])
    for point in points:
        if count >= total:
            break
        sibling = store.add_message(
            conv.id, "assistant", answer(point, version_tag(point)), main[point - 1], META
        )
        count += 1
        under = sibling.id
        for j in range(min(total - count, rng.randint(4, 30))):
            if j % 2 == 0:
                record = store.add_message(conv.id, "user", question(j), under)
            else:
                record = store.add_message(
                    conv.id, "assistant", answer(j, "Continued."), under, META
                )
            under = record.id
            count += 1
    store.set_active_leaf(conv.id, main[-1])
    assert len(store.path_to_root(main[-1])) == path_len
    store.close()
    return {"conversation": conv.id, "flip": main[flip_at], "flip_at": flip_at, "count": count}


def build_empty(db: Path) -> str:
    from storage.sqlite_store import SqliteConversationStore

    store = SqliteConversationStore(db)
    conversation = store.create_conversation(PROFILE, "Empty")
    store.close()
    return conversation.id


# -- the child ---------------------------------------------------------------------------------


async def child(
    spawned: float, conversation: str, last: int, flip: str, flip_at: int, flips: int
) -> None:
    app = stamped_app_class()(cli_services(), conversation_id=conversation)
    if last < 0:
        first = app.when_painted(lambda: (s := chat_screen(app)) is not None and s.composer_ready)
    else:
        first = app.when_painted(
            lambda: (s := chat_screen(app)) is not None and view_shows(s, end_tag(last))
        )
    switches: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        painted = await bounded(first)
        rss_first = peak_rss_mib()
        screen = chat_screen(app)
        await wait_until(lambda: screen.agents_ready)
        await pilot.pause()
        if flips:
            sibling = screen.state.index.siblings(flip)[1]
        for n in range(flips):
            source, delta, tag = (
                (flip, 1, version_tag(flip_at)) if n % 2 == 0 else (sibling, -1, start_tag(flip_at))
            )
            shown = app.when_painted(lambda tag=tag: view_shows(screen, tag))
            started = time.monotonic()
            screen.flip_version(source, delta)
            switches.append(await bounded(shown) - started)
            await pilot.pause()
            await pilot.pause(0.1)
        blocks = screen.messages.cached_block_count
    emit(
        {
            "first_paint": painted - spawned,
            "switch_ms": [s * 1000 for s in switches],
            "rss_first_paint": rss_first,
            "cached_blocks": blocks,
        }
    )


# -- the parent --------------------------------------------------------------------------------


def _runs(results: list[dict[str, Any]]) -> str:
    return ", ".join(f"{r['first_paint']:.2f}" for r in results)


def main(runs: int, path_len: int, total: int, flips: int, *, warm_up: bool = True) -> bool:
    with StampingServer() as server, tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        started = time.monotonic()
        history = build_history(tmp / "history.db", path_len, total)
        empty = build_empty(tmp / "empty.db")
        print(
            f"built {history['count']:,} records (active path {path_len:,}) in "
            f"{time.monotonic() - started:.1f} s",
            flush=True,
        )
        if warm_up:  # not counted: the first child compiles the bytecode later ones import
            warm = tmp / "warm-up"
            warm.mkdir()
            shutil.copy(tmp / "empty.db", warm / "weaver.db")
            env = child_env(warm, server.base_url)
            run_child(__file__, [empty, "-1", "-", "0", "0"], env, ROOT)
        full: list[dict[str, Any]] = []
        bare: list[dict[str, Any]] = []
        for run in range(runs):
            for template, results, args in (
                ("history.db", full,
                 [history["conversation"], str(path_len - 1), history["flip"],
                  str(history["flip_at"]), str(flips)]),
                ("empty.db", bare, [empty, "-1", "-", "0", "0"]),
            ):  # fmt: skip
                data_dir = tmp / f"{template}-{run}"
                data_dir.mkdir()
                shutil.copy(tmp / template, data_dir / "weaver.db")
                env = child_env(data_dir, server.base_url)
                results.append(run_child(__file__, args, env, ROOT))
    first = median([r["first_paint"] for r in full])
    base = median([r["first_paint"] for r in bare])
    ok: bool = report(
        f"launch (process spawn) -> first paint showing the last of {path_len:,} messages "
        f"({history['count']:,}-record tree), median of {runs}",
        f"{first:.3f} s  (runs: {_runs(full)}; "
        f"blocks rendered at the end: {full[-1]['cached_blocks']})",
        f"empty conversation {base:.3f} s (so the history itself adds {first - base:.3f} s)",
        first / base,
        f"< {FIRST_PAINT_TARGET_S:.1f} s",
        first < FIRST_PAINT_TARGET_S,
    )
    if flips:
        per_run = [median(r["switch_ms"]) for r in full]
        pooled = sorted(v for r in full for v in r["switch_ms"])
        switch = median(per_run)
        ok &= report(
            f"switch version {FLIP_DEPTH} messages from the bottom -> repainted "
            f"({flips} switches per run, median of {runs} run medians)",
            f"{switch:.1f} ms  (all: min {pooled[0]:.1f}, max {pooled[-1]:.1f} ms)",
            f"first paint of the whole path {first * 1000:.0f} ms",
            switch / (first * 1000),
            f"< {SWITCH_TARGET_MS:.0f} ms",
            switch < SWITCH_TARGET_MS,
        )
    rss = median([r["peak_rss_mib"] for r in full])
    ok &= report(
        f"peak RSS of the app with the {path_len:,}-message path open, after the switches",
        f"{rss:.1f} MiB (at first paint {median([r['rss_first_paint'] for r in full]):.1f} MiB)",
        f"empty conversation {median([r['peak_rss_mib'] for r in bare]):.1f} MiB",
        rss / median([r["peak_rss_mib"] for r in bare]),
        f"< {RSS_TARGET_MIB:.0f} MiB",
        rss < RSS_TARGET_MIB,
    )
    return ok


if __name__ == "__main__":
    if "--child" in sys.argv:
        (conversation, last, flip, flip_at, flips), spawned = child_args(sys.argv)
        asyncio.run(child(spawned, conversation, int(last), flip, int(flip_at), int(flips)))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, one run, no warm-up (smoke test)"
    )
    args = parser.parse_args()
    main(1, 40, 100, 2, warm_up=False) if args.quick else main(args.runs, 2_000, 10_000, 4)
    sys.exit(0)
