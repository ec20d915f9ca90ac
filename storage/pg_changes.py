"""The store's change signal between hosts: PostgreSQL ``LISTEN/NOTIFY``.

Every change of a conversation, a record, a seat or a seat's message sends a notification on
:data:`storage.pg_schema.CHANGES_CHANNEL` whose payload is the conversation's id (a trigger
of :mod:`storage.pg_schema`, so no writer can forget it). :class:`PgStoreChanges` listens on a
connection of its own and answers the same questions as :class:`storage.change_signal.
StoreChanges` (``changed()``, ``wait()``); given a conversation, it answers for that
conversation only. A waiting seat wakes as soon as the notification arrives, from any host.
"""

from __future__ import annotations

import asyncio
import threading

import psycopg

from storage.pg_database import connect, translate
from storage.pg_schema import CHANGES_CHANNEL

POLL_S = 0.05
"""How long one wait for a notification lasts before ``stop`` is looked at again."""


class PgStoreChanges:
    """Answers "has anyone changed ``conversation_id`` (any, when ``None``) since I asked?"."""

    def __init__(self, url: str, conversation_id: str | None = None) -> None:
        self.url = url
        self.conversation_id = conversation_id
        self._lock = threading.Lock()
        self._pending = False
        self._conn = connect(url)
        self._conn.execute(f"LISTEN {CHANGES_CHANNEL}")
        self._closed = False

    def _pull(self, timeout: float) -> None:
        """Take the notifications that arrived (waiting up to ``timeout`` for the first)."""
        with self._lock:
            if self._closed:
                return
            try:
                self._take(timeout)
            except psycopg.Error as err:
                raise translate(err, self.url) from None

    def _take(self, timeout: float) -> None:
        stop_after = None if timeout == 0 else 1
        for note in self._conn.notifies(timeout=timeout, stop_after=stop_after):
            if self.conversation_id is None or note.payload == self.conversation_id:
                self._pending = True
        if stop_after is not None and self._pending:
            for note in self._conn.notifies(timeout=0):
                _ = note  # drained: one change answers them all

    def changed(self) -> bool:
        """Whether anyone committed a change (of the conversation) since the last call."""
        self._pull(0)
        with self._lock:
            pending, self._pending = self._pending, False
        return pending

    async def wait(self, stop: asyncio.Event | None = None, poll_s: float = POLL_S) -> bool:
        """Return ``True`` at the next change, or ``False`` as soon as ``stop`` is set."""
        while stop is None or not stop.is_set():
            if self.changed():
                return True
            await asyncio.to_thread(self._pull, poll_s)
        return False

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._conn.close()
