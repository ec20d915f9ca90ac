"""Shared pieces of the whole-app benchmarks (``bench_app_*.py``): the real ``WeaverApp``,
headless at 120x40, on a real ``Services`` (SQLite in a tmp ``WEAVER_DATA_DIR``) talking real
HTTP to the fake OpenAI-compatible server.

Layout of every script: the parent process runs the fake server in a thread and spawns one
fresh child process per measured run (``--child ...``), so each run starts cold and its peak
RSS (``ru_maxrss``) is its own. The child prints one JSON line; the parent takes medians.
Times are ``time.monotonic()`` (CLOCK_MONOTONIC on Linux), comparable across the processes.

"On screen" is observed where Textual hands a finished frame to the driver: the app subclass
below wraps ``App._display`` (called right after the compositor rendered the dirty lines; the
headless driver then discards the bytes) and resolves waiters whose predicate holds on that
frame. So a time stamped here is the moment a real terminal would have received the frame.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIZE = (120, 40)
PROFILE = "ide-helper"
SENTINEL = "ZQXEND"
"""The reply's last token: a word found nowhere else, so its paint marks the reply's end."""
BOUND_S = 300.0
"""Upper bound on any wait (against a hang, not a timing check)."""

_PROVIDER_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MOONSHOT_API_KEY", "DEEPSEEK_API_KEY",
                 "DASHSCOPE_API_KEY", "AGENT_LOG_REDACT_CONTENT")  # fmt: skip


# -- parent side: the server and the children --------------------------------------------------


def bench_prompt(tokens: int, rate: float = 0.0) -> str:
    """The user message that makes the server answer with ``tokens`` Markdown tokens at
    ``rate`` tokens/s (0: as fast as the socket takes them)."""
    return f"bench tokens={tokens} rate={rate}"


def _reply_for(body: dict[str, Any]) -> Any:
    """The server's answer, chosen by the last user message (see :func:`bench_prompt`)."""
    from tests.support.fake_openai import Reply, markdown_tokens

    messages = body.get("messages") or []
    users = [m for m in messages if m.get("role") == "user"]
    text = str(users[-1].get("content") if users else "")
    if not text.startswith("bench tokens="):
        return Reply(content=f"Ready. {SENTINEL}")
    fields = dict(part.split("=", 1) for part in text.split()[1:])
    tokens, rate = int(fields["tokens"]), float(fields["rate"])
    pieces = [*markdown_tokens(max(0, tokens - 1)), f" {SENTINEL}"]
    return Reply.from_tokens(pieces, token_delay=1 / rate if rate > 0 else 0.0)


class StampingServer:
    """The fake OpenAI server (in this process's thread) that also stamps the monotonic time
    at which each streamed reply's last byte was written."""

    def __init__(self) -> None:
        from tests.support import fake_openai

        self.last_bytes: list[float] = []
        stamps = self.last_bytes

        class Handler(fake_openai._Handler):
            def _stream(self, reply: Any, events: Any) -> None:
                try:
                    super()._stream(reply, events)
                finally:
                    stamps.append(time.monotonic())

        self.fake = fake_openai.FakeOpenAI(default=_reply_for)
        self._handler = Handler
        self._server: Any = None

    def __enter__(self) -> StampingServer:
        import threading

        from tests.support import fake_openai

        fake = self.fake
        handler = type("StampingHandler", (self._handler,), {"fake": fake})
        fake._server = fake_openai._Server(("127.0.0.1", 0), handler)
        fake._thread = threading.Thread(
            target=fake._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-openai",
            daemon=True,
        )
        fake._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.fake.stop()

    @property
    def base_url(self) -> str:
        return self.fake.base_url


_BYTECODE: list[str] = []


def bytecode_env() -> dict[str, str]:
    """Where the children keep compiled bytecode: where Python keeps it, unless the shell
    forbids writing it.

    An installed weaver-tui has its bytecode compiled (pip does it), as Textual's is, so the
    children read the ``__pycache__`` folders as they are: a private cache folder would make
    the first child recompile every package it imports (Textual, LangGraph, the OpenAI SDK:
    seconds of CPU). A ``PYTHONDONTWRITEBYTECODE`` shell would have every child recompile
    weaver's sources instead; then the children share a folder of this run's, removed when the
    parent exits, which the first child fills (the scripts launch a warm-up child first).
    """
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") and not sys.dont_write_bytecode:
        return {}
    if not _BYTECODE:
        folder = tempfile.mkdtemp(prefix="weaver-bench-pycache-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _BYTECODE.append(folder)
    return {"PYTHONPYCACHEPREFIX": _BYTECODE[0]}


def child_env(data_dir: Path, base_url: str) -> dict[str, str]:
    """The environment of a child: its own data dir and config, the fake server, no keys,
    compiled bytecode (see :func:`bytecode_env`)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("WEAVER_") and k not in _PROVIDER_ENV and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(
        bytecode_env(),
        WEAVER_DATA_DIR=str(data_dir),
        WEAVER_CONFIG=str(data_dir / "config.yaml"),
        WEAVER_PROVIDER="openai-compatible",
        WEAVER_BASE_URL=base_url,
        WEAVER_API_KEY="x",
        WEAVER_MODEL="fake-model",
        WEAVER_DEFAULT_PROFILE=PROFILE,
    )
    return env


def run_child(script: str, args: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """Run ``script --child ARGS`` in a fresh interpreter; return the JSON it printed last."""
    return run_child_lines(script, args, env, cwd)[-1]


def run_child_lines(
    script: str, args: list[str], env: dict[str, str], cwd: Path
) -> list[dict[str, Any]]:
    """Run ``script --child ARGS`` in a fresh interpreter; return each JSON line it printed
    (a child that measures several things prints one line for each)."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, script, "--child", *args, "--spawned", repr(started)],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=BOUND_S,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise SystemExit(
            f"child {args} failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n"
            f"{done.stderr[-4000:]}"
        )
    return [dict(json.loads(line)) for line in lines]


# -- child side: the app --------------------------------------------------------------------


def build_services() -> Any:
    """``Services`` from the real settings loader (the environment set by :func:`child_env`)."""
    from weaver_tui.core.services import Services
    from weaver_tui.core.settings.config import load_settings

    return Services(load_settings(env_file=None))


def cli_services() -> Any:
    """``Services`` as the ``weaver-tui`` command builds them for a launch: the few settings
    the first frame needs peeked, the rest validated by the app after its first paint."""
    from weaver_tui.core.services import Services
    from weaver_tui.core.settings.pending import PendingSettings

    return Services(PendingSettings.peek(env_file=None))


def stamped_app_class() -> type[Any]:
    """``WeaverApp`` plus frame stamps (imported lazily so a launch is timed from the start)."""
    from weaver_tui.app import WeaverApp

    class StampedApp(WeaverApp):
        """Resolves :meth:`when_painted` futures on the first frame where their predicate
        holds; the predicate runs right after that frame was composed."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.frames = 0
            self.frame_probe: Callable[[], Any] | None = None
            """Sampled on every frame into ``probed`` as ``(time, value)``."""
            self.probed: list[tuple[float, Any]] = []
            self._waiters: list[tuple[Callable[[], bool], asyncio.Future[float]]] = []

        def when_painted(self, predicate: Callable[[], bool]) -> asyncio.Future[float]:
            future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            self._waiters.append((predicate, future))
            return future

        def _display(self, screen: Any, renderable: Any) -> None:
            super()._display(screen, renderable)
            if renderable is None or self._batch_count:
                return
            self.frames += 1
            now = time.monotonic()
            if self.frame_probe is not None:
                self.probed.append((now, self.frame_probe()))
            for waiter in list(self._waiters):
                predicate, future = waiter
                if future.done():
                    self._waiters.remove(waiter)
                elif predicate():
                    future.set_result(now)
                    self._waiters.remove(waiter)

    return StampedApp


def chat_screen(app: Any) -> Any:
    from weaver_tui.screens.chat.screen import ChatScreen

    stack = app.screen_stack
    return stack[0] if stack and isinstance(stack[0], ChatScreen) else None


async def wait_until(predicate: Callable[[], bool], bound_s: float = BOUND_S) -> None:
    deadline = time.monotonic() + bound_s
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit("the app never reached the expected state")
        await asyncio.sleep(0.005)


async def bounded(future: asyncio.Future[float], bound_s: float = BOUND_S) -> float:
    return await asyncio.wait_for(future, bound_s)


async def ready(app: Any) -> Any:
    """The chat screen once it is mounted and the agent stack warm-up has finished."""
    await wait_until(lambda: (s := chat_screen(app)) is not None and s.composer_ready)
    screen = chat_screen(app)
    await wait_until(lambda: screen.agents_ready)
    return screen


def view_shows(screen: Any, word: str) -> bool:
    """Whether the message view's visible lines contain ``word``."""
    return any(word in line for line in screen.messages.visible_text())


async def send_and_wait(pilot: Any, screen: Any, text: str) -> float:
    """Send ``text`` with Enter; return the time the whole reply was first on screen."""
    app = pilot.app
    screen.composer.load_text(text)
    previous = screen.turn
    shown = app.when_painted(lambda: reply_on_screen(screen, previous))
    await pilot.press("enter")
    return await bounded(shown)


def reply_on_screen(screen: Any, previous: Any) -> bool:
    """A turn newer than ``previous`` is over and its reply's last token (the sentinel) is
    drawn in the viewport."""
    turn = screen.turn
    if screen.running or turn is None or turn is previous or turn.outcome.status == "running":
        return False
    if turn.outcome.status != "complete":
        raise SystemExit(f"the turn ended {turn.outcome.status}: {turn.outcome.error}")
    item = screen.messages.get_item(turn.outcome.reply_ids[-1])
    return (
        item is not None
        and item.content.rstrip().endswith(SENTINEL)
        and view_shows(screen, SENTINEL)
    )


def child_args(argv: list[str]) -> tuple[list[str], float]:
    """The child's own arguments and the parent's spawn time."""
    index = argv.index("--spawned")
    return argv[argv.index("--child") + 1 : index], float(argv[index + 1])


def emit(result: dict[str, Any]) -> None:
    """The child's answer to the parent (one JSON line on stdout), with the process's peak RSS
    so far unless the result holds one taken earlier."""
    result.setdefault("peak_rss_mib", peak_rss_mib())
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


# -- figures --------------------------------------------------------------------------------


def peak_rss_mib() -> float:
    """This process's peak resident set size in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def report(
    name: str, figure: str, baseline: str, ratio: float | None, target: str, ok: bool
) -> bool:
    """One result block: figure, the baseline from the same run, ratio, target, verdict."""
    print(name)
    print(f"  figure:   {figure}")
    print(f"  baseline: {baseline}")
    if ratio is not None:
        print(f"  ratio:    {ratio:.2f}x")
    print(f"  target:   {target} -> {'PASS' if ok else 'FAIL'}", flush=True)
    return ok
