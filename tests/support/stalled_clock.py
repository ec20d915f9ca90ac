"""A clock for Textual's timers that stalls once, as a busy machine or a garbage collection
can make it, right after a named timer starts.

A Textual timer's task reads the clock to start, then again to wait for its first beat. This
clock, seen only by the timers (``textual.timer``'s ``_time``), jumps ``STALL_S`` ahead between
those two readings for each timer named and keeps that offset afterwards, so time still only
moves forward. Other timers see it jump when a named one does.
"""

from __future__ import annotations

import asyncio
import types
from time import monotonic

import pytest
import textual.timer

STALL_S = 0.05


def stall_after_start(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """From now on, a timer called one of ``names`` finds ``STALL_S`` gone by as it starts
    (each of them once)."""
    readings = dict.fromkeys(names, 0)
    stalls = 0

    def get_time() -> float:
        nonlocal stalls
        task = asyncio.current_task()
        name = None if task is None else task.get_name()
        if name in readings:
            readings[name] += 1
            if readings[name] == 2:
                stalls += 1
        return monotonic() + STALL_S * stalls

    clock = types.SimpleNamespace(get_time=get_time)
    monkeypatch.setattr(textual.timer, "_time", clock)
