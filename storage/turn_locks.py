"""One turn at a time per conversation, across processes: the turn locks the storage offers.

A turn that continues a conversation holds the conversation's turn lock while it runs; a
second turn is refused at once (:class:`TurnBusy`). With the SQLite file the lock is an
advisory lock on a small file in the data folder (``locks/<conversation id>.lock``,
:class:`FileTurnLocks`); on a PostgreSQL server it is a session advisory lock per conversation
(:class:`storage.pg_turn_locks.PgTurnLocks`), so hosts sharing the database take turns too.
Either way the lock goes when the process holding it ends, however it ends.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from storage.store import StorageError


class TurnBusy(StorageError):
    """Another process holds the conversation's turn."""

    def __init__(self, conversation_id: str) -> None:
        super().__init__(f"A reply is being written in conversation {conversation_id}.")
        self.conversation_id = conversation_id


class TurnLocks(Protocol):
    def hold(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        """Hold the conversation's turn for the block, or raise :class:`TurnBusy` at once."""
        ...

    def busy(self, conversation_id: str) -> bool:
        """Whether another turn holds the conversation's lock right now."""
        ...

    def hold_answerer(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        """Be the one that answers a shared space's waiting messages, or raise
        :class:`TurnBusy` at once: with several hosts (or a host's app beside its space
        runner), one answers the line while the others stand by, so a message is never
        answered twice."""
        ...


class FileTurnLocks:
    """Turn locks as ``flock`` on files under ``data_dir / "locks"``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)

    def hold(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        return self._hold(f"{conversation_id}.lock", conversation_id)

    def hold_answerer(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        return self._hold(f"{conversation_id}.answerer", conversation_id)

    @contextlib.contextmanager
    def _hold(self, name: str, conversation_id: str) -> Iterator[None]:
        try:
            import fcntl
        except ImportError:  # no advisory locks here (Windows): turns are not serialised
            yield
            return
        folder = self.data_dir / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / name, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise TurnBusy(conversation_id) from None
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def busy(self, conversation_id: str) -> bool:
        """Creates nothing: a conversation whose lock file does not exist has never had a
        turn holding it. The probe takes the lock for an instant: a turn starting in that
        instant is refused as if the prober's own turn had started first."""
        try:
            import fcntl
        except ImportError:
            return False
        try:
            fd = os.open(self.data_dir / "locks" / f"{conversation_id}.lock", os.O_RDWR)
        except FileNotFoundError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return False
        finally:
            os.close(fd)
