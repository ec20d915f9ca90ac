"""Run one front end's first turn in this fresh interpreter and print, as one JSON line, every
module of the agent stack imported by a thread while that thread ran an event loop.

    python -m tests.support.loop_imports MODE

The provider and data folder come from the environment (``WEAVER_*``, set by the test). MODE:

- ``ask``: ``weaver-tui ask hello`` (the services' runtime, as ``acp`` and ``serve`` use it);
- ``acp``: ``weaver-tui acp`` (the client drives it; the report goes to the file
  :data:`REPORT_VARIABLE` names, when the client closes the connection);
- ``app-at-once``: the app as the command builds it (settings pending, the skeleton first),
  a message typed into the first frame's composer and sent at once, before the warm-up;
- ``app-while-importing``: the same, sent once the warm-up's imports have started;
- ``app-after-warm-up``: the same, sent once the warm-up is over (model built, runtime open).

Each mode waits for the reply to be stored complete, so the whole first turn is followed. For
``app-after-warm-up`` the report also lists every module (of any package) imported on the loop
from the Enter on: the warm-up imports what a first turn needs. Every report also lists the
chat models built on a loop (``built_on_loop``): a build makes HTTP clients and may import the
provider's stack, so it belongs in a thread like the imports.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from collections.abc import Sequence
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.loop_builds import loop_running

WATCHED = (
    "langchain_core",
    "langchain_openai",
    "langgraph",
    "langsmith",
    "openai",
    "aiosqlite",
    "psycopg",
    "mcp",
    "httpx",
    "anyio",
)
"""The agent stack's libraries, each tens of milliseconds to import (the app's own modules that
import one of them show up through it)."""


MODEL_BUILDER = "agents.providers"
"""The module whose ``make_chat_model`` builds every chat model (watched once it is imported)."""

REPORT_VARIABLE = "WEAVER_TEST_LOOP_IMPORTS"
"""Where the ``acp`` mode writes its report."""


def watched(name: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in WATCHED)


class LoopImportSpy:
    """A finder that finds nothing and records each watched import made on a running loop."""

    def __init__(self) -> None:
        self.on_loop: list[tuple[str, str]] = []
        self.in_turn: list[str] = []
        """Every module (watched or not) imported on a loop once :attr:`turn_sent` is set."""
        self.turn_sent = False
        self.built_on_loop: list[str] = []
        """The thread of each chat model built while that thread ran an event loop."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if loop_running():
            if watched(name):
                self.on_loop.append((name, threading.current_thread().name))
            if self.turn_sent:
                self.in_turn.append(name)
        if name == MODEL_BUILDER:
            return self._watched_builder(name, path)
        return None

    def _watched_builder(self, name: str, path: Sequence[str] | None) -> ModuleSpec | None:
        """The model builder's real spec, loaded so that each build records its thread."""
        spec = PathFinder.find_spec(name, path)
        loader: Any = spec.loader if spec is not None else None
        if loader is None:
            return spec
        execute = loader.exec_module
        builds = self.built_on_loop

        def exec_module(module: ModuleType) -> None:
            execute(module)
            build = module.make_chat_model

            def make_chat_model(*args: Any, **kwargs: Any) -> Any:
                if loop_running():
                    builds.append(threading.current_thread().name)
                return build(*args, **kwargs)

            module.make_chat_model = make_chat_model  # type: ignore[attr-defined]

        loader.exec_module = exec_module
        return spec


async def _app_turn(mode: str, spy: LoopImportSpy) -> bool:
    from weaver_tui.app import make_app
    from weaver_tui.core.services import Services
    from weaver_tui.core.settings.pending import PendingSettings
    from weaver_tui.screens.chat.screen import ChatScreen

    services = Services(PendingSettings.peek(env_file=None), configure_logging=False)
    app = make_app(services, profile="ide-helper")
    async with app.run_test(size=(100, 30)) as pilot:
        if mode != "app-at-once":
            await _until(pilot, lambda: _chat(app) is not None)
            chat = _chat(app)
            assert chat is not None
            if mode == "app-while-importing":
                await _until(pilot, lambda: _warm_up_importing(app))
            else:
                await _until(pilot, lambda: chat.agents_ready and services.model_built)
                await _until(pilot, lambda: chat.turns.worker is None and _runtime_open(chat))
        focused: Any = app.focused
        focused.load_text("hello")
        spy.turn_sent = mode == "app-after-warm-up"
        await pilot.press("enter")
        await _until(pilot, lambda: _replied(app))
        return isinstance(app.screen_stack[0], ChatScreen)


def _chat(app: Any) -> Any:
    from weaver_tui.screens.chat.screen import ChatScreen

    screen = app.screen_stack[0] if app.screen_stack else None
    return screen if isinstance(screen, ChatScreen) and screen.composer_ready else None


def _warm_up_importing(app: Any) -> bool:
    return any(thread.name == "weaver-warm-up-imports" for thread in threading.enumerate()) or bool(
        _chat(app) and _chat(app).agents_ready
    )


def _runtime_open(chat: Any) -> bool:
    return bool(chat.turns._controller.runtime_open)


def _replied(app: Any) -> bool:
    chat = _chat(app)
    if chat is None:
        return False
    return any(
        item.role == "assistant" and item.status == "complete" and item.content
        for item in chat.state.path_items()
    )


async def _until(pilot: Any, predicate: Any, bound_s: float = 60) -> None:
    """Poll ``predicate`` while the app runs (a bound against a hang, not a timing check)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound_s
    while not predicate():
        if loop.time() > deadline:
            raise SystemExit("the first turn never completed")
        await pilot.pause(0.01)


def main(mode: str) -> None:
    spy = LoopImportSpy()
    sys.meta_path.insert(0, spy)
    if mode == "acp":  # stdout is the protocol's: the report goes to the file named
        report_file = Path(os.environ[REPORT_VARIABLE])
        try:
            from weaver_tui.launch import main as command

            command(["acp"])
        finally:
            report = {"completed": True, "on_loop": spy.on_loop, "built_on_loop": spy.built_on_loop}
            report_file.write_text(json.dumps(report))
        return
    if mode == "ask":
        from weaver_tui.launch import main as command

        completed = command(["ask", "hello"]) == 0
    else:
        completed = asyncio.run(_app_turn(mode, spy))
    report = {
        "completed": completed,
        "on_loop": spy.on_loop,
        "in_turn": spy.in_turn,
        "built_on_loop": spy.built_on_loop,
    }
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
