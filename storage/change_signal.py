"""The store's change signal across processes: ``PRAGMA data_version``, polled.

Several processes share one conversation database (the host's TUI, the host's space runner,
each seat of a shared space). SQLite tells a connection that *another* connection committed
by changing the value of ``PRAGMA data_version``; reading it costs a few microseconds and no
lock. :class:`StoreChanges` keeps a connection of its own for that question, so every commit
by anyone else (this process's store included) changes what it sees.

Past one host this signal becomes Postgres ``LISTEN/NOTIFY``; the waiting side stays the same.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

POLL_S = 0.05
"""How often :meth:`StoreChanges.wait` asks (a change is seen within this, plus the query)."""


class StoreChanges:
    """Answers "has anyone committed to ``path`` since I last asked?"."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._version = self._read()

    def _read(self) -> int:
        with self._lock:
            return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """Whether another connection committed since the last call (or since opening)."""
        version = self._read()
        if version == self._version:
            return False
        self._version = version
        return True

    async def wait(self, stop: asyncio.Event | None = None, poll_s: float = POLL_S) -> bool:
        """Return ``True`` at the next change, or ``False`` as soon as ``stop`` is set."""
        while stop is None or not stop.is_set():
            if self.changed():
                return True
            if stop is None:
                await asyncio.sleep(poll_s)
                continue
            try:
                await asyncio.wait_for(stop.wait(), poll_s)
            except TimeoutError:
                continue
        return False

    def close(self) -> None:
        with self._lock:
            self._conn.close()
