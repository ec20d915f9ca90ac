"""Launch to first paint: weaver-tui against a bare Textual ``App``, measured in the same run.

Each launch is a fresh interpreter (imports are most of the cost), run headless at 120x40 on a
data folder that holds one conversation of 40 messages, so the app reopens it as a user's would.
The time is from spawning the process to the app's ``Ready`` event (posted after the first
frame is composed). The child also reports whether the agent stack (LangGraph, LangChain) was
already imported at that moment: it must not be, the chat screen imports it after the paint.

    .venv/bin/python benchmarks/bench_ui_launch.py [--runs 5]

Target: weaver-tui median < 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 0.5

WEAVER_CHILD = """
import sys
from weaver_tui.app import WeaverApp
from weaver_tui.services import Services
from weaver_tui.settings import load_settings

class Bench(WeaverApp):
    def on_ready(self):
        names = ("langgraph", "langchain_core", "langchain_openai")
        heavy = sorted(name for name in names if name in sys.modules)
        print("READY " + ",".join(heavy), flush=True)
        self.exit()

settings = load_settings(env_file=None, provider="offline")
Bench(Services(settings)).run(headless=True, size=(120, 40))
"""

BARE_CHILD = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

    def on_ready(self):
        print("READY ", flush=True)
        self.exit()

Bare().run(headless=True, size=(120, 40))
"""


def seed(data_dir: Path) -> None:
    """One conversation of 40 records, so launch reopens a real branch."""
    sys.path.insert(0, str(ROOT))
    from storage.sqlite_store import SqliteConversationStore

    with SqliteConversationStore(data_dir / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper", "Benchmark conversation")
        parent = None
        for n in range(40):
            role = "user" if n % 2 == 0 else "assistant"
            text = f"Message {n}: " + "some *Markdown* text with `code`. " * 8
            parent = store.add_message(conversation.id, role, text, parent).id


def launch(code: str, env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    elapsed = time.perf_counter() - started
    process.wait(timeout=30)
    if not line.startswith("READY"):
        raise SystemExit(f"the app did not report its first paint: {line!r}")
    return elapsed, line.removeprefix("READY").strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        seed(data_dir)
        env = {k: v for k, v in os.environ.items() if not k.startswith("WEAVER_")}
        env |= {
            "WEAVER_DATA_DIR": str(data_dir),
            "WEAVER_CONFIG": str(Path(tmp) / "config.yaml"),
            "PYTHONPATH": str(ROOT),
        }
        launch(BARE_CHILD, env)  # warm the OS file cache for both
        launch(WEAVER_CHILD, env)
        weaver, bare, heavy_seen = [], [], set()
        for _ in range(args.runs):
            seconds, heavy = launch(WEAVER_CHILD, env)
            weaver.append(seconds)
            heavy_seen.update(filter(None, heavy.split(",")))
            bare.append(launch(BARE_CHILD, env)[0])
    weaver_median = statistics.median(weaver)
    bare_median = statistics.median(bare)
    result = {
        "figure": "launch to first paint (s, median)",
        "runs": args.runs,
        "weaver_tui": round(weaver_median, 3),
        "bare_textual_app": round(bare_median, 3),
        "ratio": round(weaver_median / bare_median, 2),
        "target_s": TARGET_S,
        "meets_target": weaver_median < TARGET_S,
        "agent_stack_imported_before_paint": sorted(heavy_seen),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
