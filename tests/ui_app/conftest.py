"""Fixtures for the app tests: real settings, a real SQLite store in ``tmp_path``, the offline
model or the fake OpenAI-compatible server, and pilot helpers that wait on the turn worker
instead of sleeping."""

from __future__ import annotations

import asyncio
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
from weaver_tui.app import WeaverApp, make_app
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.services import Services
from weaver_tui.settings.config import load_settings
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
    three rounds in a row (a handler may start a worker or post a message).

    Textual's own waits: ``pilot.pause()`` returns once the app, the screen and its widgets
    have handled what was queued for them (a key press reaches the composer, its
    ``Submitted`` the screen, a few hops later) and the process is idle;
    ``app.workers.wait_for_complete()`` once the running workers are done.
    """
    deadline = time.monotonic() + bound_s
    quiet = 0
    while quiet < 3:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("the app never settled (a worker or a message loop is stuck)")
        await pilot.pause()
        if busy(pilot.app):
            quiet = 0
            await _running_workers_done(pilot.app, left)
        else:
            quiet += 1


async def _running_workers_done(app: App[Any], bound_s: float) -> None:
    """Wait (at most ``bound_s``) for the workers running now; how they ended is the test's to
    check (a pending worker cannot be waited on yet: the next round sees it run)."""
    running = [w for w in app.workers if w.state == WorkerState.RUNNING]
    if running:
        with suppress(TimeoutError, WorkerFailed, WorkerCancelled):
            await asyncio.wait_for(app.workers.wait_for_complete(running), bound_s)


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
    """Let the app run until ``predicate()`` holds (a bound against a hang, not a timing check)."""
    deadline = time.monotonic() + bound_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the app never reached the expected state")
        await pilot.pause(0.01)


async def chat_ready(pilot: Pilot[Any]) -> None:
    """Wait for the chat screen's first mount (auto-pilots may start before it)."""

    def mounted() -> bool:
        stack = pilot.app.screen_stack
        return bool(stack) and isinstance(stack[0], ChatScreen) and stack[0].composer_ready

    await wait_until(pilot, mounted)


def new_app(services: Services, **kwargs: Any) -> WeaverApp:
    return make_app(services, **kwargs)
