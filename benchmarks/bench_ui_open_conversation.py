"""The whole app on a big conversation: first paint and switching branch, end to end.

A conversation whose active path holds 2,000 messages in a tree of 10,000 (8,000 side
replies hang off random path messages; seeded) is written with the store's import, then the
real ``WeaverApp`` opens it the way a user would (it reopens the last conversation), headless at
120x40. Each launch is a fresh interpreter.

- first paint: from spawning the process to the app's ``Ready`` (target: < 1 s);
  baseline, same run: the same app on a data folder with one 2-message conversation;
- switching branch: ``ChatScreen.flip_version`` on a message in the middle of the path (store
  update, message view, tree, header) until every message it caused is handled and the
  screen is laid out and painted (target: < 100 ms);
  baseline, same run: the same flip on the small conversation.

    .venv/bin/python benchmarks/bench_ui_open_conversation.py [--runs 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("storage") is None:  # else the checkout on PYTHONPATH (compare)
    sys.path.insert(0, str(ROOT))

CHILD = """
import asyncio, statistics, sys, time
from weaver_tui.app import WeaverApp
from weaver_tui.core.services import Services
from weaver_tui.core.settings.config import load_settings

painted = []

class Bench(WeaverApp):
    def on_ready(self):
        painted.append(time.time())

async def main():
    app = Bench(Services(load_settings(env_file=None, provider="offline")))
    async with app.run_test(size=(120, 40)) as pilot:
        while not painted:
            await pilot.pause(0.01)
        screen = app.screen_stack[0]
        while not screen.agents_ready:  # the warm-up import after the paint is done
            await pilot.pause(0.01)
        await pilot.pause()
        path = screen.state.path_ids()
        forks = [m for m in path if len(screen.state.index.siblings(m)) > 1]
        target = forks[len(forks) // 2]
        switches = []
        for _ in range(6):
            siblings = screen.state.index.siblings(target)
            delta = 1 if siblings.index(target) == 0 else -1
            await pilot.pause()
            started = time.perf_counter()
            screen.flip_version(target, delta)
            await pilot._wait_for_screen()  # every message the flip caused is handled
            screen._on_timer_update()  # lay out and paint now, not at the next frame tick
            switches.append(time.perf_counter() - started)
            target = siblings[siblings.index(target) + delta]
        print("RESULT", painted[0], len(path), statistics.median(switches[1:]), flush=True)

asyncio.run(main())
"""


def seed_big(data_dir: Path, path_length: int, total: int) -> None:
    from storage.models import Conversation, MessageRecord
    from storage.sqlite_store import SqliteConversationStore

    rng = random.Random(7)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    records: list[MessageRecord] = []
    children: dict[str | None, int] = {}

    def add(record_id: str, role: str, parent: MessageRecord | None, text: str) -> MessageRecord:
        key = parent.id if parent else None
        children[key] = children.get(key, 0) + 1
        record = MessageRecord(
            record_id,
            "big",
            role,  # type: ignore[arg-type]
            text,
            key,
            parent.depth + 1 if parent else 0,
            children[key],
            start + timedelta(seconds=len(records)),
            {"status": "complete"},
        )
        records.append(record)
        return record

    line: list[MessageRecord] = []
    parent = None
    for n in range(path_length):
        role = "user" if n % 2 == 0 else "assistant"
        text = f"Message {n}: some *Markdown* with `code` and a list:\n\n- one\n- two\n"
        parent = add(f"p{n}", role, parent, text)
        line.append(parent)
    for n in range(total - path_length):
        above = rng.choice(line[:-1])
        add(f"s{n}", "assistant" if above.role == "user" else "user", above, f"Side {n}")
    choices = {(r.parent_id or ""): r.id for r in line}
    conversation = Conversation(
        "big", "Big conversation", "paper-pilot", start, start, {"active_leaf": line[-1].id}
    )
    with SqliteConversationStore(data_dir / "weaver.db") as store:
        store.import_tree(conversation, records, choices)


def seed_small(data_dir: Path) -> None:
    from storage.sqlite_store import SqliteConversationStore

    with SqliteConversationStore(data_dir / "weaver.db") as store:
        conversation = store.create_conversation("paper-pilot", "Small conversation")
        question = store.add_message(conversation.id, "user", "Hello?", None)
        store.add_message(conversation.id, "assistant", "Hi.", question.id)
        store.add_message(conversation.id, "assistant", "Hello there.", question.id)


def launch(data_dir: Path, config: Path) -> tuple[float, int, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEAVER_")}
    env |= {"WEAVER_DATA_DIR": str(data_dir), "WEAVER_CONFIG": str(config)}
    env["PYTHONPATH"] = str(ROOT)
    spawned = time.time()
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT")), None)
    if line is None:
        raise SystemExit(f"the app did not report: {done.stdout[-500:]} {done.stderr[-2000:]}")
    _, painted, path_length, switch = line.split()
    return float(painted) - spawned, int(path_length), float(switch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--path", type=int, default=2000)
    parser.add_argument("--records", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big", Path(tmp) / "small"
        seed_big(big, args.path, args.records)
        seed_small(small)
        config = Path(tmp) / "config.yaml"
        launch(small, config)  # warm the file cache
        runs = [(launch(big, config), launch(small, config)) for _ in range(args.runs)]
    big_paint = statistics.median(b[0] for b, _ in runs)
    small_paint = statistics.median(s[0] for _, s in runs)
    big_switch = statistics.median(b[2] for b, _ in runs)
    small_switch = statistics.median(s[2] for _, s in runs)
    print(
        json.dumps(
            {
                "figure": "open a big conversation in the app; switch branch (median)",
                "runs": args.runs,
                "active_path": runs[0][0][1],
                "records": args.records,
                "first_paint_s": round(big_paint, 3),
                "baseline_first_paint_small_conversation_s": round(small_paint, 3),
                "first_paint_ratio": round(big_paint / small_paint, 2),
                "first_paint_target_s": 1.0,
                "switch_branch_ms": round(big_switch * 1000, 1),
                "baseline_switch_small_conversation_ms": round(small_switch * 1000, 1),
                "switch_ratio": round(big_switch / small_switch, 2),
                "switch_target_ms": 100,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
