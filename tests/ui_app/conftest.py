"""Fixtures for the app tests: real settings, a real SQLite store in ``tmp_path``, the offline
model or the fake OpenAI-compatible server, and pilot helpers that wait on the turn worker
instead of sleeping."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed, WorkerState

from tests.support.fake_openai import FakeOpenAI
from tests.support.shared_notes import notes_settings_for
from weaver_tui.app import WeaverApp, make_app
from weaver_tui.core.services import Services
from weaver_tui.core.settings.config import load_settings
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.widgets.message_view import MessageView

SIZE = (120, 40)

_PROVIDER_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "MOONSHOT_API_KEY",
    "DEEPSEEK_API_KEY",
    "DASHSCOPE_API_KEY",
    "AGENT_LOG_REDACT_CONTENT",
)


@pytest.fixture
def weaver_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean environment: data and config in ``tmp_path``, no provider keys, no ``.env``."""
    for name in list(os.environ):
        if name.startswith("WEAVER_") or name in _PROVIDER_ENV:
            monkeypatch.delenv(name)
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WEAVER_CONFIG", str(tmp_path / "config.yaml"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def build_services(**overrides: Any) -> Services:
    """Services from the real settings loader (env + the tmp config file)."""
    settings = load_settings(env_file=None, **overrides)
    return Services(settings, configure_logging=False)


@pytest.fixture
def shared_notes(weaver_env: Path, notes_url: str) -> None:
    """paper-pilot asks the knowledge server the worker's tests share (a config file naming
    it), for the tests where paper-pilot only opens: its warm-up then starts no server of the
    test's own. Use it before the services (``usefixtures``)."""
    settings = notes_settings_for(notes_url, weaver_env)
    (weaver_env / "config.yaml").write_text(json.dumps(settings), encoding="utf-8")


@pytest.fixture
def services(weaver_env: Path) -> Iterator[Services]:
    """Services on the offline model."""
    built = build_services(provider="offline")
    yield built
    built.close_store()


@pytest.fixture
def remote_services(weaver_env: Path, fake_openai: FakeOpenAI) -> Iterator[Services]:
    """Services on the fake OpenAI-compatible server (real HTTP, real SSE)."""
    built = build_services(
        provider="openai-compatible",
        base_url=fake_openai.base_url,
        api_key="test-key",
        model="fake-model",
        http_timeout=10,
    )
    yield built
    built.close_store()


def chat(app: App[Any]) -> ChatScreen:
    screen = app.screen_stack[0]
    assert isinstance(screen, ChatScreen)
    return screen


def busy(app: Any) -> bool:
    """Whether a worker is pending or running, or streamed text waits for the render budget
    (longer on a busy runner)."""
    if any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers):
        return True
    nodes = app.screen.walk_children(with_self=True)
    return any(isinstance(node, MessageView) and node.render_pending for node in nodes)


async def settle(pilot: Pilot[Any], *, bound_s: float = 30) -> None:
    """Wait until every worker (the turn, warm-up) is done and every queued message handled,
    three rounds in a row (a handler may start a worker or post a message), the last of them
    a full ``pilot.pause()``.

    Textual's own waits: ``pilot.pause()`` returns once the app, the screen and its widgets
    have handled what was queued for them (a key press reaches the composer, its
    ``Submitted`` the screen, a few hops later), the process is idle and the screen is
    repainted; ``app.workers.wait_for_complete()`` once the running workers are done. A full
    pause posts a callback to every widget of the screen, so the first two rounds only look
    at the message queues (see ``_pumps_idle``) and the full pause confirms at the end.
    """
    deadline = time.monotonic() + bound_s
    quiet = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the app never settled: {_still_busy(pilot.app)}")
        if quiet < _CHEAP_ROUNDS:
            await asyncio.sleep(_CHEAP_ROUND_S)
        else:
            await pilot.pause()
        if busy(pilot.app) or not _pumps_idle(pilot.app):
            quiet = 0
            await _running_workers_done(pilot.app, left)
        elif quiet >= _CHEAP_ROUNDS:
            return
        else:
            quiet += 1


_CHEAP_ROUNDS = 2
_CHEAP_ROUND_S = 0.02


def _pumps_idle(app: App[Any]) -> bool:
    """Whether the app, its screen and the screen's widgets have handled every message posted to
    them: none queued, none being handled (an asyncio queue counts a message as unfinished
    until its pump calls ``task_done()`` after the handler returned), no ``call_next``
    callback waiting, no recompose queued and no callback waiting for the screen's next paint
    (the footer recomposes after a paint once the keys on offer changed)."""
    if app.screen._callbacks:
        return False
    pumps = [app, *app.screen.walk_children(with_self=True)]
    return all(_pump_idle(pump) for pump in pumps)


def _pump_idle(pump: Any) -> bool:
    return (
        getattr(pump._message_queue, "_unfinished_tasks", 0) == 0
        and not pump._next_callbacks
        and not _recompose_queued(pump)
    )


def _recompose_queued(pump: Any) -> bool:
    return bool(getattr(pump, "_recompose_required", False))


def _still_busy(app: App[Any]) -> str:
    """What kept :func:`settle` waiting, for its failure: the workers not done, the message
    views with a render pending and the pumps with messages or callbacks queued."""
    workers = [
        f"{w.name or w.group} ({w.state.name.lower()})"
        for w in app.workers
        if w.state in (WorkerState.PENDING, WorkerState.RUNNING)
    ]
    nodes = list(app.screen.walk_children(with_self=True))
    views = [
        f"{node!r} (flush timer {node._flush_timer is not None}, after the next paint: "
        f"{sorted(callback.__name__ for callback in node._after_paint)})"
        for node in nodes
        if isinstance(node, MessageView) and node.render_pending
    ]
    pumps = [
        f"{pump!r} ({getattr(pump._message_queue, '_unfinished_tasks', 0)} messages, "
        f"{len(pump._next_callbacks)} callbacks, recompose {_recompose_queued(pump)})"
        for pump in [app, *nodes]
        if not _pump_idle(pump)
    ]
    return (
        f"workers not done: {workers or 'none'}; views rendering: {views or 'none'}; "
        f"pumps with work queued: {pumps or 'none'}; "
        f"callbacks after the next paint: {len(app.screen._callbacks)}"
    )


async def _running_workers_done(app: App[Any], bound_s: float) -> None:
    """Wait (at most ``bound_s``) for the workers running now; how they ended is the test's to
    check (a pending worker cannot be waited on yet: the next round sees it run). The wait is
    shielded: a wait that times out must not cancel the workers it waited on (awaiting a task
    and being cancelled cancels that task), so a failure can still name them."""
    running = [w for w in app.workers if w.state == WorkerState.RUNNING]
    if running:
        with suppress(TimeoutError, WorkerFailed, WorkerCancelled):
            await asyncio.wait_for(asyncio.shield(app.workers.wait_for_complete(running)), bound_s)


async def send(pilot: Pilot[Any], text: str, *, wait: bool = True) -> None:
    """Type ``text`` into the composer as a draft and press Enter, then wait for the reply."""
    screen = chat(pilot.app)
    composer = screen.composer
    composer.focus()
    composer.load_text(text)
    await pilot.press("enter")
    if wait:
        await settle(pilot)


async def wait_until(
    pilot: Pilot[Any], predicate: Callable[[], bool], *, bound_s: float = 20
) -> None:
    """Let the app run until ``predicate()`` holds (a bound against a hang, not a timing check).

    The app runs on this event loop and repaints on its own timers, so the predicate is polled
    on a plain sleep; a full ``pilot.pause()`` (a callback to every widget of the screen) runs
    only every ``_FULL_PAUSE_EVERY_S`` and once more before giving up. When the predicate
    holds after waiting, the screen is brought up to date as a pause would have left it.
    """
    deadline = time.monotonic() + bound_s
    next_full = time.monotonic() + _FULL_PAUSE_EVERY_S
    waited = False
    while not predicate():
        now = time.monotonic()
        if now > deadline:
            await pilot.pause()
            if predicate():
                return
            raise AssertionError("the app never reached the expected state")
        waited = True
        if now >= next_full:
            await pilot.pause(0)
            next_full = time.monotonic() + _FULL_PAUSE_EVERY_S
        else:
            await asyncio.sleep(_POLL_S)
    if waited:
        pilot.app.screen._on_timer_update()


_POLL_S = 0.01
_FULL_PAUSE_EVERY_S = 0.1


async def chat_ready(pilot: Pilot[Any]) -> None:
    """Wait for the chat screen's first mount (auto-pilots may start before it)."""

    def mounted() -> bool:
        stack = pilot.app.screen_stack
        return bool(stack) and isinstance(stack[0], ChatScreen) and stack[0].composer_ready

    await wait_until(pilot, mounted)


def new_app(services: Services, **kwargs: Any) -> WeaverApp:
    return make_app(services, **kwargs)
