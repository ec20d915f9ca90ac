"""The chat's own modules that a first turn loads on first use, imported by the warm-up.

They are left out of the first frame's imports on purpose (it paints before any of them is
needed), and each costs a millisecond or two; imported on the event loop they were about
5 ms of every launch's first reply. The warm-up's thread imports them with the agent stack.
"""

from __future__ import annotations

import importlib

FIRST_TURN_MODULES = (
    "weaver_tui.screens.chat.turn_view",
    "weaver_tui.screens.tool_approval",
    "weaver_tui.widgets.profile_lines",
    "weaver_tui.core.attach",
)
"""What the first turn's view, its tool approvals, the profile's panel lines and a message's
``@file`` mentions import when they are first used (``tests/test_loop_imports.py`` finds any
module a first turn after the warm-up still imports on the event loop)."""


def import_first_turn_modules() -> None:
    """Import :data:`FIRST_TURN_MODULES` (in the warm-up's thread)."""
    for name in FIRST_TURN_MODULES:
        importlib.import_module(name)
