"""A one-shot timer that fires even when the process stalls as it starts.

Textual's ``set_timer`` is a timer of one beat that skips the beats it missed: its task reads
the clock once to start and once more to wait, and if the second reading is already past the
deadline (the process was descheduled on a busy machine, or a garbage collection ran between
the two readings) it counts the beat as missed and ends without calling back. For a delay of a
few milliseconds that stall is short enough to happen in daily use, and a callback that never
comes leaves whatever waited on it (text streamed into the message view) unshown for good.

:func:`call_once_after` uses a repeating timer instead, which after a missed beat waits for
the next one, and stops it at the first call: late by at most one more ``delay``, never lost.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message_pump import MessagePump
from textual.timer import Timer


def call_once_after(
    pump: MessagePump, delay: float, callback: Callable[[], object], *, name: str
) -> Timer:
    """Call ``callback`` once on ``pump``'s message loop after ``delay`` seconds; stopping the
    timer returned before then cancels the call, and closing ``pump`` stops it (as for
    ``set_timer``)."""

    fired = False

    def fire() -> None:
        # Stopping cancels the timer's task at its next wait, but a beat due within half a
        # millisecond is taken without waiting: this call may come once more before then.
        nonlocal fired
        timer.stop()
        if not fired:
            fired = True
            pump.call_next(callback)

    timer = pump.set_interval(delay, fire, name=name)
    return timer
