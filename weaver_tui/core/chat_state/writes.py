"""Store writes the chat screen need not wait for, run in order on one thread per store.

Checking out a branch remembers it in the store: the active leaf, and the chosen child at every
fork of its path (about 10 ms on a 2,000-message path). The screen shows the branch at once and
this thread writes it behind. Ordering is kept by one rule: whoever reads or writes what such a
write changes first calls :meth:`OrderedWrites.settle` on the store's writer (every
:class:`~weaver_tui.core.chat_state.ChatState` on the store does so before its own store calls), so
the store sees every change in the order the user made it.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from typing import Any

from storage.store import StorageError

logger = logging.getLogger(__name__)

SETTLE_BOUND_S = 60.0
"""Upper bound on waiting for earlier writes (SQLite's own busy timeout is far shorter)."""


class OrderedWrites:
    """One writer thread (started on first use) running store calls in submission order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._last: Future[None] | None = None

    def submit(self, what: str, call: Callable[..., Any], *args: Any) -> None:
        """Run ``call(*args)`` after every earlier write; ``what`` names it in the log."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="weaver-store-writes")
            self._last = self._pool.submit(_run, what, call, args)

    def settle(self) -> None:
        """Wait until every write submitted so far has run (at once when none is pending)."""
        last = self._last
        if last is not None and not last.done():
            wait_for([last], timeout=SETTLE_BOUND_S)

    @property
    def pending(self) -> bool:
        last = self._last
        return last is not None and not last.done()


def _run(what: str, call: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """A write failed after the screen moved on: nothing to undo on screen, so log it."""
    try:
        call(*args)
    except StorageError as exc:
        logger.warning("could not %s: %s", what, exc)
    except Exception:
        logger.exception("could not %s", what)


_WRITERS: weakref.WeakKeyDictionary[object, OrderedWrites] = weakref.WeakKeyDictionary()
_REGISTRY_LOCK = threading.Lock()


def writes_for(store: object) -> OrderedWrites:
    """The writer of ``store`` (shared by everything that holds the same store object)."""
    with _REGISTRY_LOCK:
        writer = _WRITERS.get(store)
        if writer is None:
            writer = _WRITERS[store] = OrderedWrites()
        return writer
