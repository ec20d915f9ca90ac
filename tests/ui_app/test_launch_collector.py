"""The cyclic garbage collector, paused for the launch, runs no collection until the launch's
heap is frozen at the end of the chat's warm-up (:mod:`weaver_tui.core.heap`): a collection
over the freshly imported heap costs tens of milliseconds, which the frame showing the opened
conversation, and a message typed at once, would wait for. Whatever the launch opens (a new
chat or a conversation of any length), the collector is on again once the warm-up is over,
and the frame showing what was opened came without a collection before it."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

import weaver_tui.app
from tests.ui_app.conftest import SIZE, chat_ready, wait_until
from tests.ui_app.test_launch_deferred import _pending, _seeded
from weaver_tui.app import make_app
from weaver_tui.core import heap
from weaver_tui.core.heap import pause_collector
from weaver_tui.screens.chat.screen import ChatScreen


@pytest.mark.parametrize("messages", [0, 3, 40])
async def test_no_collection_walks_the_launch_heap_before_it_is_frozen(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch, messages: int
) -> None:
    monkeypatch.setattr(heap, "_done", set())  # this process's launch heap is not frozen yet
    if messages:
        _seeded(weaver_env, messages, profile="ide-helper")
    services = _pending()
    app = make_app(services)
    last = f"message {messages - 1}"
    events: list[str] = []
    display = app._display

    def counting(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and isinstance(screen, ChatScreen):
            text = screen.messages.visible_text()
            if (not messages or any(last in line for line in text)) and "shown" not in events:
                events.append("shown")

    real_freeze = heap.freeze_launch_heap

    def freeze() -> None:
        if heap._paused:
            events.append("frozen")
        real_freeze()

    def collected(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            events.append("collection")

    monkeypatch.setattr(app, "_display", counting)
    monkeypatch.setattr(weaver_tui.app, "freeze_launch_heap", freeze)
    pause_collector()  # as the weaver-tui command does before importing Textual
    gc.callbacks.append(collected)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await chat_ready(pilot)
            await wait_until(pilot, lambda: gc.isenabled() and "shown" in events)
            # the runtime the warm-up opens is open before the app ends (not cut mid-open)
            await wait_until(pilot, lambda: not _warming(app))
    finally:
        gc.callbacks.remove(collected)
        gc.enable()
        services.close_store()
    assert "frozen" in events
    before_freeze = events[: events.index("frozen")]
    assert "collection" not in before_freeze, events
    before_shown = events[: events.index("shown")]
    assert "collection" not in before_shown or "frozen" in before_shown, events


async def test_a_warm_up_that_fails_still_turns_the_collector_back_on(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heap, "_done", set())
    services = _pending()
    app = make_app(services)

    def broken(self: ChatScreen) -> None:
        raise ImportError("a broken install")

    monkeypatch.setattr(ChatScreen, "_import_agent_stack", broken)
    pause_collector()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await chat_ready(pilot)
            await wait_until(pilot, gc.isenabled)
            assert heap.LAUNCH_HEAP in heap._done
    finally:
        gc.enable()
        services.close_store()


def _warming(app: Any) -> bool:
    return any(worker.group == "warm-up" and not worker.is_finished for worker in app.workers)
