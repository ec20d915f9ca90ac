"""Turn locks on a PostgreSQL server: a session advisory lock per conversation.

``pg_try_advisory_lock(TURN_LOCKS, hashtext(conversation id))`` on a connection of the turn's
own, held for the turn and released at its end; the server releases it by itself when the
connection ends, so a host killed mid-reply frees the conversation for the other hosts (and
its reply is then marked interrupted, see ``mark_interrupted_replies``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg

from storage.pg_database import connect, translate
from storage.pg_schema import ANSWERER_LOCKS, TURN_LOCKS
from storage.turn_locks import TurnBusy

_TRY = "SELECT pg_try_advisory_lock(%s, hashtext(%s))"
_UNLOCK = "SELECT pg_advisory_unlock(%s, hashtext(%s))"


class PgTurnLocks:
    """Turn locks of the database at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url

    def hold(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        return self._hold(TURN_LOCKS, conversation_id)

    def hold_answerer(self, conversation_id: str) -> contextlib.AbstractContextManager[None]:
        return self._hold(ANSWERER_LOCKS, conversation_id)

    @contextlib.contextmanager
    def _hold(self, kind: int, conversation_id: str) -> Iterator[None]:
        with connect(self.url) as conn:
            try:
                row = conn.execute(_TRY, (kind, conversation_id)).fetchone()
            except psycopg.Error as err:
                raise translate(err, self.url) from None
            if not (row and row[0]):
                raise TurnBusy(conversation_id)
            try:
                yield
            finally:
                # a connection the server dropped has released the lock already
                with contextlib.suppress(psycopg.Error):
                    conn.execute(_UNLOCK, (kind, conversation_id))

    def busy(self, conversation_id: str) -> bool:
        with connect(self.url) as conn:
            try:
                row = conn.execute(_TRY, (TURN_LOCKS, conversation_id)).fetchone()
                if row and row[0]:
                    conn.execute(_UNLOCK, (TURN_LOCKS, conversation_id))
                    return False
                return True
            except psycopg.Error as err:
                raise translate(err, self.url) from None
