"""Pilot key presses that wait for an idle app in finer steps.

After each key ``Pilot.press`` waits twice for the process to be idle (Textual's
``wait_for_idle``): it sleeps a step, and stops once a step passed with the process using
under a twentieth of it on CPU. Textual's step is 20 ms, so every key costs at least 40 ms of
waiting even when the app handled it in one. The suite types thousands of keys, and that
waiting was about half of the UI tests' time not spent on CPU. With a 5 ms step the test
still waits until the process is idle by the same measure (CPU under 5% of a step), only
sooner once it is. Tests that need more than "idle now" wait with ``settle()``.
"""

from __future__ import annotations

import textual._wait

STEP_S = 0.005


def install() -> None:
    """Make this process's pilot waits take ``STEP_S`` steps (read by ``wait_for_idle`` at
    each call, so apps already made follow too)."""
    textual._wait.SLEEP_GRANULARITY = STEP_S
    textual._wait.SLEEP_IDLE = STEP_S / 20
