"""Keeping the garbage collector's full collections short while the app runs.

Why: a streaming reply makes cyclic garbage quickly (every Textual ``Strip`` that caches itself
is a cycle), so full collections run about once a second, and each one walked the whole heap:
~220,000 long-lived objects of Textual, LangChain, pydantic and the app, measured at 50-150 ms
per collection, a frozen key press, frame or branch switch every time. Objects that live as
long as the app (imported modules, the agent stack, an open big conversation) are moved into
the collector's permanent generation (``gc.freeze``); a full collection then walks only what
was made since (~15-30 ms). Garbage frozen by mistake is never collected, so a young
collection runs first and freezing happens only at the few points named here.

Young collections are made rarer too (:data:`YOUNG_THRESHOLD`): every frame and every streamed
token allocate objects that die within milliseconds, and Python's default (a collection every
700 net allocations, ~400 of them in a 20,000-token reply) also promotes short-lived objects
that a slightly later collection would have found dead. Measured over that reply in the app:
the collector's time fell from ~0.17 s to ~0.03 s of CPU, peak memory unchanged.

On launch the collector is paused (:func:`pause_collector`) until the chat's warm-up is over
(the agent stack imported, the chat model built, the renderer warm): nearly everything made
meanwhile lives as long as the app (Textual, the first frames, LangChain, the OpenAI SDK). Left
on, the collector made ~90 young collections before the first paint and ~20 after it (0.1 s of
CPU, all of it while a message typed at once waited for the warm-up); one young collection
over that heap before freezing it costs as much. So the launch's heap is frozen as it is
(:func:`freeze_launch_heap`), without a collection: the cyclic garbage of the launch (~14,000
objects, most of them the launch frame's widgets, measured with an OpenAI-compatible
provider) stays in the permanent generation, a one-time cost of about 3 MiB of peak RSS.
While the launch holds the collector paused, the other freezes skip their collection too.
"""

from __future__ import annotations

import gc
import logging

logger = logging.getLogger(__name__)

_done: set[str] = set()
_paused = False
"""Whether :func:`pause_collector` turned the collector off (and it is still off)."""


def pause_collector() -> None:
    """Turn the cyclic collector off until :func:`resume_collector` (a no-op if it is off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector() -> bool:
    """Turn the collector back on if :func:`pause_collector` turned it off; True if it did."""
    global _paused
    if not _paused:
        return False
    _paused = False
    gc.enable()
    return True


def freeze_long_lived(reason: str, *, once: bool = False) -> None:
    """Move what is alive now out of the cyclic collector's sight (``reason``: for the log;
    ``once``: only the first time this reason is given in the process)."""
    if once:
        if reason in _done:
            return
        _done.add(reason)
    if not _paused:  # during the launch's pause, frozen as it is (see the module)
        gc.collect(1)
    gc.freeze()
    if logger.isEnabledFor(logging.DEBUG):  # the count walks every frozen object (~20 ms)
        logger.debug("heap frozen", extra={"reason": reason, "frozen": gc.get_freeze_count()})


def freeze_launch_heap() -> None:
    """The launch's warm-up is over (or failed): if the launch still holds the collector
    paused, freeze what is alive as it is, once a process (see the module); the caller then
    resumes the collector."""
    if _paused:
        freeze_long_lived(LAUNCH_HEAP, once=True)


LAUNCH_HEAP = "the launch's imports are in"
"""The freeze at the end of the launch's warm-up (:func:`freeze_launch_heap`)."""

AGENT_STACK_LOADED = "the agent stack is loaded"
"""The freeze made once the agent stack is imported and its runtime open: at the end of the
warm-up when no turn is running, else when the turn that started first has ended (never
while a turn waits or streams: a freeze walks the heap)."""

YOUNG_THRESHOLD = 10_000
"""Net allocations between two young collections (Python's default is 700)."""


def rarer_young_collections() -> tuple[int, ...]:
    """Raise the young generation's threshold; return the thresholds to restore."""
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, *before[1:])
    return before
