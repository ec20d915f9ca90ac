"""``call_once_after``: one call after the delay, even after a stall as its timer starts
(Textual's ``set_timer`` then never calls back), and none once the timer is stopped."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App

from tests.support.stalled_clock import stall_after_start
from weaver_tui.once_timer import call_once_after


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []


async def test_a_stall_as_the_timer_starts_delays_the_call_but_does_not_lose_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Host()
    async with app.run_test():
        stall_after_start(monkeypatch, "set_timer", "once")
        app.set_timer(0.001, lambda: app.calls.append("set_timer"), name="set_timer")
        call_once_after(app, 0.001, lambda: app.calls.append("once"), name="once")
        await asyncio.sleep(0.3)
        assert app.calls == ["once"]  # Textual's own one-shot timer lost its call


async def test_it_calls_back_once_and_a_stopped_timer_not_at_all() -> None:
    app = Host()
    async with app.run_test():
        call_once_after(app, 0.001, lambda: app.calls.append("kept"), name="kept")
        stopped = call_once_after(app, 0.05, lambda: app.calls.append("stopped"), name="gone")
        stopped.stop()
        await asyncio.sleep(0.2)
        assert app.calls == ["kept"]


async def test_beats_due_before_the_stop_takes_effect_call_back_no_more() -> None:
    # Textual takes a beat due within half a millisecond without waiting, so a timer of a
    # tenth of a millisecond has beats left to take after it stopped itself.
    app = Host()
    async with app.run_test():
        for n in range(20):
            call_once_after(app, 0.0001, lambda: app.calls.append("once"), name=f"quick-{n}")
        await asyncio.sleep(0.2)
        assert app.calls == ["once"] * 20
