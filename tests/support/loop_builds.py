"""Recording whether a call ran on a thread that runs an event loop (a chat model's build, say,
which belongs in a thread: it makes HTTP clients and may import the provider's stack)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


def loop_running() -> bool:
    """Whether the calling thread runs an event loop now."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def recording_loops(func: Callable[..., Any]) -> tuple[Callable[..., Any], list[bool]]:
    """``func`` wrapped to note, per call, whether it ran on a loop; and those notes."""
    on_loop: list[bool] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        on_loop.append(loop_running())
        return func(*args, **kwargs)

    return recording, on_loop
