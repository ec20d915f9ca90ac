"""Launch to first paint: weaver-tui against a bare Textual ``App``, measured in the same run.

Each launch is a fresh interpreter (imports are most of the cost), run headless at 120x40 on a
data folder that holds one conversation of 40 messages, so the app reopens it as a user's would.
Both children import compiled bytecode, as an installed app does (a warm-up launch writes it to
a temporary cache, whatever ``PYTHONDONTWRITEBYTECODE`` says).
The weaver child runs the real ``weaver-tui`` command (``weaver_tui.launch.main``, the path a user
starts: settings, store, app), only made headless; it imports nothing before the command does,
so Textual is imported where the command imports it (after pausing the garbage collector). The
time is from spawning the process to the app's ``Ready`` event (posted after the first frame
is laid out). The child also reports whether
the agent stack (LangGraph, LangChain) was already imported at that moment: it must not be, the
chat screen imports it after the paint.

The first frame is the chat screen's skeleton (``weaver_tui/screens/chat_skeleton.py``: header,
empty panes, a live composer, footer, in the configured theme); the store, the validated
settings and the chat screen with the reopened conversation follow it. So the later phases
are timed too, from the same spawn (median of the runs): the settings validated by
pydantic-settings, the reopened conversation's last message drawn on screen, the agent stack
imported. ``conversation_on_screen`` is the figure to compare with a launch that waits for
everything before its first frame.

    .venv/bin/python benchmarks/bench_ui_launch.py [--runs 5]

Target: weaver-tui median (first paint) < 0.5 s.
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
PHASES = {
    "SETTINGS": "settings_validated",
    "HISTORY": "conversation_on_screen",
    "AGENTS": "agent_stack_imported",
}

WEAVER_CHILD = """
import sys
from weaver_tui import launch as cli

HEAVY = ("langgraph", "langchain_core", "langchain_openai")
LAST_MESSAGE = "Message 39:"
_make_app = cli._make_app


def make_headless_app(services, args):
    # The app is built where the weaver-tui command builds it, so Textual is imported in the
    # same order as for a user (after the command has paused the garbage collector).
    app = _make_app(services, args)
    app_class = type(app)
    app_class.on_ready = on_ready
    run = app_class.run
    app.run = lambda *a, **k: run(app, headless=True, size=(120, 40))
    return app


def on_ready(self):
    heavy = sorted(name for name in HEAVY if name in sys.modules)
    print("READY " + ",".join(heavy), flush=True)
    self._phases_left = {"SETTINGS", "HISTORY", "AGENTS"}
    self.set_interval(0.01, lambda: watch(self))
    self.set_timer(20, self.exit)


def on_screen(app, text):
    update = app.screen._compositor.render_update(full=True)
    return any(text in strip.text for line in update.strips for strip in line)


def watch(app):
    screen = app.screen_stack[0]
    done = {
        "SETTINGS": app.services.settings_ready,
        "HISTORY": "HISTORY" in app._phases_left and on_screen(app, LAST_MESSAGE),
        "AGENTS": getattr(screen, "agents_ready", False),
    }
    for phase in sorted(app._phases_left):
        if done[phase]:
            print(phase, flush=True)
            app._phases_left.discard(phase)
    if not app._phases_left:
        app.exit()


cli._make_app = make_headless_app
sys.exit(cli.main(["--provider", "offline"]))
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
    from storage.models import Role
    from storage.sqlite_store import SqliteConversationStore

    with SqliteConversationStore(data_dir / "weaver.db") as store:
        conversation = store.create_conversation("ide-helper", "Benchmark conversation")
        parent = None
        for n in range(40):
            role: Role = "user" if n % 2 == 0 else "assistant"
            text = f"Message {n}: " + "some *Markdown* text with `code`. " * 8
            parent = store.add_message(conversation.id, role, text, parent).id


def launch(code: str, env: dict[str, str]) -> tuple[float, str, dict[str, float]]:
    """Spawn a child; the seconds to its READY line, what it had imported, and the seconds to
    each later phase line it prints (all from the spawn)."""
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
    if not line.startswith("READY"):
        process.kill()
        raise SystemExit(f"the app did not report its first paint: {line!r}")
    phases: dict[str, float] = {}
    for later in process.stdout:
        phases[later.strip()] = time.perf_counter() - started
    if process.wait(timeout=30) != 0:
        raise SystemExit(f"the app exited with {process.returncode}")
    return elapsed, line.removeprefix("READY").strip(), phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        seed(data_dir)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("WEAVER_") and k != "PYTHONDONTWRITEBYTECODE"
        }
        env |= {
            "WEAVER_DATA_DIR": str(data_dir),
            "WEAVER_CONFIG": str(Path(tmp) / "config.yaml"),
            "PYTHONPATH": str(ROOT),
            # An installed weaver-tui has its bytecode compiled (pip does it), as Textual's is;
            # without this, a PYTHONDONTWRITEBYTECODE shell would recompile weaver's sources
            # on every launch. The cache lives in the temporary folder, not in the tree.
            "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache"),
        }
        launch(BARE_CHILD, env)  # warm the OS file cache (and the bytecode cache) for both
        launch(WEAVER_CHILD, env)
        weaver: list[float] = []
        bare: list[float] = []
        heavy_seen: set[str] = set()
        phases: dict[str, list[float]] = {name: [] for name in PHASES.values()}
        for _ in range(args.runs):
            seconds, heavy, later = launch(WEAVER_CHILD, env)
            weaver.append(seconds)
            heavy_seen.update(filter(None, heavy.split(",")))
            for line, name in PHASES.items():
                if line not in later:
                    raise SystemExit(f"the app never reported {name}")
                phases[name].append(later[line])
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
        "after_first_paint_s": {
            name: round(statistics.median(times), 3) for name, times in phases.items()
        },
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
