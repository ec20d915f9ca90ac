"""The long-lived heap is frozen once (:mod:`weaver_tui.core.heap`), and never while a turn runs
or just as one ends: the freeze walks the whole heap (60-90 ms), so at the end of the first
turn it waits a moment (``FREEZE_AFTER_S``), letting the reply's last frames be drawn, and a
turn started meanwhile puts it off to that turn's end. Whatever the order of turns and the
warm-up, every freeze runs with no turn running."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import weaver_tui.core.heap
import weaver_tui.screens.chat.turn_runner as turn_runner
from tests.ui_app.conftest import SIZE, build_services, chat, chat_ready, send, wait_until
from weaver_tui.app import make_app


@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(turns=st.integers(min_value=1, max_value=3), wait_for_warm_up=st.booleans())
async def test_the_heap_is_frozen_once_with_no_turn_running(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch, turns: int, wait_for_warm_up: bool
) -> None:
    monkeypatch.setattr(weaver_tui.core.heap, "_done", set())  # not frozen yet in this process
    services = build_services(provider="offline")
    app = make_app(services)
    running_at_freeze: list[bool] = []
    real_freeze = weaver_tui.core.heap.freeze_long_lived

    def recording(reason: str, *, once: bool = False) -> None:
        if reason not in weaver_tui.core.heap._done:
            running_at_freeze.append(chat(app).turns.cancel_event is not None)
        real_freeze(reason, once=once)

    monkeypatch.setattr(turn_runner, "freeze_long_lived", recording)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await chat_ready(pilot)
            if wait_for_warm_up:
                await wait_until(pilot, lambda: chat(app).agents_ready)
            for n in range(turns):
                await send(pilot, f"hello {n}", wait=n == turns - 1)
            await wait_until(pilot, lambda: bool(running_at_freeze))
            assert running_at_freeze == [False]
    finally:
        services.close_store()
