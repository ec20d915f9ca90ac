"""One measurement of ``benchmarks/compare``, in a fresh interpreter, on one checkout.

The parent runs this file with ``PYTHONPATH`` set to the checkout under test (the working tree
or the previous commit's worktree), so every ``weaver_tui`` / ``agents`` import below comes
from that checkout; this file itself only uses what both sides have (the ``weaver-tui``
command, ``make_app``, the chat screen's status). It prints one JSON line per measurement;
times are ``time.monotonic()`` (CLOCK_MONOTONIC, comparable with the parent's).

    python _compare_child.py MODE [TOKENS ...]

MODE is one of

- ``bare``: a bare Textual app (header, a label, footer) to its ``Ready`` event: the launch
  baseline (given TOKENS, the app then exits and the process reads each reply as ``raw``
  does);
- ``launch``: the ``weaver-tui`` command, headless at 120x40, to its ``Ready`` event, when the
  launch frame's composer takes keys (given TOKENS, the app then goes on as in ``reply``);
- ``reply``: the app as the command builds it (settings validated after the first paint),
  left to finish its warm-up, then one message whose reply is TOKENS tokens: the time from
  Enter to the first frame that shows the reply's last token, and the process's peak RSS
  (given several TOKENS, one message after another in the same app: the first is the
  process's first turn, the others not);
- ``early``: the real command as in ``launch``, then, DELAY seconds after its first ``Ready``
  (``early DELAY TOKENS``), a message typed into whatever holds the keys then (the launch frame's
  composer or the chat's) and Enter: the time from Enter to the first frame that shows the
  reply's last token, with the warm-up still under way (a message typed at once);
- ``open``: the real command as in ``launch``, on a data folder holding a big conversation (a
  2,000-message path in a 10,000-record tree, seeded by the parent), opened with
  ``--conversation``: to the first frame that shows the path's last message, and the peak RSS
  once the warm-up is over too (the agent stack in, the history open);
- ``open-huge``: the real command as in ``launch``, reopening a conversation whose last message
  is 200 KB of Markdown-like text (seeded by the parent), to the first frame that shows that
  message's end;
- ``raw``: the same reply read over plain HTTP (httpx, no SDK), each event's JSON decoded and
  its text kept: the stream baseline (given several TOKENS, one read after another);
- ``astream``: the same reply through ``ChatOpenAI.astream`` alone: the memory baseline.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

SIZE = (120, 40)
SENTINEL = "ZQXEND"
"""The reply's last token (see ``_app_harness``)."""
BOUND_S = 300.0
"""Upper bound of any wait (against a hang, not a timing check)."""


def emit(**result: Any) -> None:
    result["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


def prompt(tokens: int) -> str:
    return f"bench tokens={tokens} rate=0"


# -- launch ------------------------------------------------------------------------------------


def bare(counts: list[int]) -> None:
    from textual.app import App
    from textual.widgets import Footer, Header, Static

    class Bare(App[None]):
        def compose(self) -> Any:
            yield Header()
            yield Static("hello")
            yield Footer()

        def on_ready(self) -> None:
            emit(ready=time.monotonic())
            self.exit()

    Bare().run(headless=True, size=SIZE)
    raw(counts)


def _entry_module() -> Any:
    """The module of the command's entry point: ``weaver_tui.launch`` (the app over a
    headless core), or ``weaver_tui.cli`` in a checkout from before that split."""
    import importlib

    if (_checkout_package() / "launch.py").is_file():  # this checkout's own, not an install's
        return importlib.import_module("weaver_tui.launch")
    return importlib.import_module("weaver_tui.cli")


def launch(counts: list[int]) -> None:
    """The real command (``weaver_tui.launch.main``), only made headless, ended at its first
    ``Ready``; Textual is imported where the command imports it. Given TOKENS (``--quick``),
    the app goes on from that frame as ``reply`` does (its warm-up, then each reply) and
    ends after the last."""
    cli = _entry_module()

    make = cli._make_app
    results: list[dict[str, Any]] = []

    def headless(services: Any, args: Any) -> Any:
        # the app is patched in place to exit on its first ready frame, so it is handled untyped
        app: Any = make(services, args)
        app_class: Any = type(app)
        run = app_class.run
        if counts:
            _stamp(app)

        def on_ready(self: Any) -> None:
            emit(ready=time.monotonic())
            if counts:
                self.run_worker(replies_then_exit(self), group="bench")
            else:
                self.exit()

        app_class.on_ready = on_ready
        app.run = lambda *a, **k: run(app, headless=True, size=SIZE)
        return app

    async def replies_then_exit(app: Any) -> None:
        from textual.pilot import Pilot

        results.extend(await _replies(app, Pilot(app), counts))
        app.exit()

    cli._make_app = headless
    code = cli.main([])
    for result in results:
        emit(**result)
    sys.exit(code)


def _command_then(work: Any, argv: list[str], waiting: Any = None) -> None:
    """The real command (``weaver_tui.launch.main(argv)``), headless at 120x40, stamping frames
    (``waiting``: the first frame to stamp), running ``work(app, ready)`` from its first
    ``Ready``; each dict ``work`` returns is printed, then the process exits with its code."""
    cli = _entry_module()

    make = cli._make_app
    results: list[dict[str, Any]] = []

    def headless(services: Any, args: Any) -> Any:
        app: Any = _stamp(make(services, args))
        app.waiting = waiting and (lambda: waiting(app))
        app_class: Any = type(app)
        run = app_class.run

        def on_ready(self: Any) -> None:
            ready = time.monotonic()
            self.run_worker(then_exit(self, ready), group="bench")

        app_class.on_ready = on_ready
        app.run = lambda *a, **k: run(app, headless=True, size=SIZE)
        return app

    async def then_exit(app: Any, ready: float) -> None:
        results.append(await work(app, ready))
        app.exit()

    cli._make_app = headless
    code = cli.main(argv)
    for result in results:
        emit(**result)
    sys.exit(code)


def early(delay: float, tokens: int) -> None:
    """``launch``, then ``delay`` seconds after the first ``Ready`` one message of ``tokens``
    tokens typed into the focused composer and sent (see the module)."""

    async def typed(app: Any, ready: float) -> dict[str, Any]:
        from textual.pilot import Pilot

        # The delay is what is measured (a user who types at once), not a wait for a state.
        await asyncio.sleep(max(0.0, ready + delay - time.monotonic()))
        # the keys move from the launch frame's composer to the chat's as the chat comes in
        await _until(lambda: hasattr(app.focused, "load_text"))
        app.focused.load_text(prompt(tokens))
        app.waiting = lambda: _typed_reply_shown(app)
        started = time.monotonic()
        await Pilot(app).press("enter")
        await _until(lambda: app.shown_at is not None)
        return {"elapsed": app.shown_at - started, "ready": ready, "sent": started}

    _command_then(typed, [])


OPEN_LAST = "Message 1999:"
"""The start of the big conversation's last message (``bench_ui_open_conversation``)."""


def open_big() -> None:
    """The command opening the big conversation, to the frame showing its last message."""

    async def shown(app: Any, ready: float) -> dict[str, Any]:
        await _until(lambda: app.shown_at is not None)
        at = app.shown_at
        await _until(lambda: _warm(app))  # the peak RSS with the history open and the agents in
        return {"shown": at}

    _command_then(shown, ["--conversation", "big"], waiting=_last_message_shown)


def open_huge() -> None:
    """The command reopening the conversation whose last message is huge, to the first frame
    that shows that message's end."""

    async def shown(app: Any, ready: float) -> dict[str, Any]:
        await _until(lambda: app.shown_at is not None)
        return {"shown": app.shown_at}

    _command_then(shown, ["--conversation", "huge"], waiting=_huge_end_shown)


def _huge_end_shown(app: Any) -> bool:
    from bench_ui_open_huge_message import HUGE_END  # type: ignore[import-not-found]

    return _chat_shows(app, HUGE_END)


def _last_message_shown(app: Any) -> bool:
    return _chat_shows(app, OPEN_LAST)


def _chat_shows(app: Any, text: str) -> bool:
    """The chat screen is in and a line on screen holds ``text``."""
    try:
        from weaver_tui.screens.chat.screen import ChatScreen
    except ImportError:
        return False
    screen = app.screen_stack[0] if app.screen_stack else None
    if not isinstance(screen, ChatScreen):
        return False
    return any(text in line for line in screen.messages.visible_text())


def _typed_reply_shown(app: Any) -> bool:
    """The chat screen is in and shows a finished first turn with the reply's last token."""
    try:
        from weaver_tui.screens.chat.screen import ChatScreen
    except ImportError:
        return False
    screen = app.screen_stack[0] if app.screen_stack else None
    if not isinstance(screen, ChatScreen) or screen.turn is None:
        return False
    return _reply_shown(screen, None)


# -- a reply -----------------------------------------------------------------------------------


async def _until(predicate: Any) -> None:
    deadline = time.monotonic() + BOUND_S
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit("the app never reached the expected state")
        await asyncio.sleep(0.002)


def _warm(app: Any) -> bool:
    """The chat screen is in, its composer focused, and its warm-up worker has ended."""
    try:  # the layout since the chat screen became a package, else the one before
        from weaver_tui.screens.chat.screen import ChatScreen
    except ImportError:
        from weaver_tui.screens.chat import ChatScreen  # type: ignore[no-redef,attr-defined]

    screen = app.screen_stack[0] if app.screen_stack else None
    if not isinstance(screen, ChatScreen) or not screen.composer_ready or not screen.agents_ready:
        return False
    return not any(w.group == "warm-up" and not w.is_finished for w in app.workers)


def _reply_shown(screen: Any, previous: Any) -> bool:
    """A turn newer than ``previous`` is over and its reply's last token is drawn."""
    turn = screen.turn
    if screen.running or turn is None or turn is previous or turn.outcome.status == "running":
        return False
    if turn.outcome.status != "complete":
        raise SystemExit(f"the turn ended {turn.outcome.status}: {turn.outcome.error}")
    item = screen.messages.get_item(turn.outcome.reply_ids[-1])
    shown = any(SENTINEL in line for line in screen.messages.visible_text())
    return item is not None and item.content.rstrip().endswith(SENTINEL) and shown


def _stamp(app: Any) -> Any:
    """``app`` stamping the first frame on which its ``waiting`` check holds (frames are taken
    where Textual hands them to the driver)."""
    app.waiting, app.shown_at = None, None
    display = app._display

    def stamped(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        check = app.waiting
        if renderable is not None and not app._batch_count and check and check():
            app.shown_at = time.monotonic()
            app.waiting = None

    app._display = stamped
    return app


async def _replies(app: Any, pilot: Any, counts: list[int]) -> list[dict[str, Any]]:
    """Once the app's warm-up is over, one message per count whose reply is that many
    tokens: Enter to the first frame showing the reply's last token."""
    await _until(lambda: _warm(app))
    warm = time.monotonic()
    screen = app.screen_stack[0]
    results: list[dict[str, Any]] = []
    for tokens in counts:
        previous, app.shown_at = screen.turn, None
        screen.composer.load_text(prompt(tokens))
        app.waiting = lambda previous=previous: _reply_shown(screen, previous)
        started = time.monotonic()
        await pilot.press("enter")
        await _until(lambda: app.shown_at is not None)
        results.append({"elapsed": app.shown_at - started, "warm": warm})
    return results


def _headless_module(name: str) -> Any:
    """``weaver_tui.core.NAME`` in a checkout with a headless core, else ``weaver_tui.NAME``
    (this file measures older checkouts too; an editable install may hold the other layout)."""
    import importlib

    prefix = "weaver_tui.core" if (_checkout_package() / "core").is_dir() else "weaver_tui"
    return importlib.import_module(f"{prefix}.{name}")


def _checkout_package() -> Path:
    """The folder of the ``weaver_tui`` package this process measures."""
    import importlib

    return Path(importlib.import_module("weaver_tui").__file__ or "").parent


async def reply(counts: list[int]) -> None:
    from weaver_tui.app import make_app

    services: Any = _headless_module("services")
    pending: Any = _headless_module("settings.pending")
    Services, PendingSettings = services.Services, pending.PendingSettings

    # the app as ``make_app`` builds it, given two attributes and a patched _display: untyped
    app: Any = _stamp(make_app(Services(PendingSettings.peek(env_file=None))))
    async with app.run_test(size=SIZE) as pilot:
        results = await _replies(app, pilot, counts)
    for result in results:
        emit(**result)


# -- baselines ---------------------------------------------------------------------------------


def _body(tokens: int) -> dict[str, Any]:
    return {
        "model": os.environ["WEAVER_MODEL"],
        "messages": [{"role": "user", "content": prompt(tokens)}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }


def raw(counts: list[int]) -> None:
    """Each reply read as plain server-sent events: request sent to ``[DONE]`` read."""
    for tokens in counts:
        _raw(tokens)


def _raw(tokens: int) -> None:
    import httpx

    url = os.environ["WEAVER_BASE_URL"] + "/chat/completions"
    text: list[str] = []
    with httpx.Client(trust_env=False, timeout=BOUND_S) as client:
        started = time.monotonic()
        with client.stream("POST", url, json=_body(tokens)) as answer:
            for line in answer.iter_lines():
                if line.startswith("data: {"):
                    choices = json.loads(line[6:]).get("choices")
                    text += [c["delta"].get("content") or "" for c in choices or ()]
        elapsed = time.monotonic() - started
    if not "".join(text).endswith(SENTINEL):
        raise SystemExit("the raw read never saw the reply's last token")
    emit(elapsed=elapsed)


async def astream(tokens: int) -> None:
    from langchain_core.messages import HumanMessage
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(
        model=os.environ["WEAVER_MODEL"],
        base_url=os.environ["WEAVER_BASE_URL"],
        api_key=os.environ["WEAVER_API_KEY"],  # type: ignore[arg-type]
        max_retries=0,
        stream_usage=True,
    )
    started = time.monotonic()
    last = ""
    async for chunk in model.astream([HumanMessage(prompt(tokens))]):
        last = str(chunk.content) or last
    elapsed = time.monotonic() - started
    if not last.endswith(SENTINEL):
        raise SystemExit("astream never saw the reply's last token")
    emit(elapsed=elapsed)


if __name__ == "__main__":
    mode, *rest = sys.argv[1:]
    counts = [int(count) for count in rest if count.isdigit()] or [0]
    if mode == "bare":
        bare([int(count) for count in rest])
    elif mode == "launch":
        launch([int(count) for count in rest])
    elif mode == "reply":
        asyncio.run(reply(counts))
    elif mode == "early":
        early(float(rest[0]), int(rest[1]))
    elif mode == "seed":  # the big conversation, written by this checkout's store
        from bench_ui_open_conversation import seed_big  # type: ignore[import-not-found]

        seed_big(Path(os.environ["WEAVER_DATA_DIR"]), 2000, 10_000)
        emit(seeded=time.monotonic())
    elif mode == "seed-huge":  # the huge message, written by this checkout's store
        from bench_ui_open_huge_message import seed_huge

        seed_huge(Path(os.environ["WEAVER_DATA_DIR"]))
        emit(seeded=time.monotonic())
    elif mode == "open":
        open_big()
    elif mode == "open-huge":
        open_huge()
    elif mode == "raw":
        raw(counts)
    elif mode == "astream":
        asyncio.run(astream(counts[0]))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
