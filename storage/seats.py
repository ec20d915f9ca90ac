"""The seats of a shared space and the messages waiting at them, in the conversation database.

A *seat* is one participant's place in a mediator conversation served to several people: a
random token (the secret of the participant's link) bound to one conversation and one name.
A seat opens only when this user opened it here: its row carries a MAC under the user's own key
(:mod:`storage.authority`); a seat row from a copied or crafted store file, written by another
client, edited, or from before the MAC opens nothing and is not listed (opening the space again
gives that participant a new seat). A seat is valid until it is revoked (``weaver-tui space close``); the same link reconnects
after a browser or the host restarts. Tokens are stored as they are: whoever reads this file
already reads every private message in it, so hashing them would protect nothing and would
stop the host from printing the links again.

A seat's process is no writer of conversation records: what its participant sends waits in
``seat_messages`` until the host's space runner stores it through the runtime and answers it,
one at a time per space, oldest first. A message is in line only when a seat served here put
it there (its row's MAC verifies, as a seat's does): a row written into the table by anyone
else is never shown nor answered. A row is deleted once its user record is stored and
its turn has ended; a row that could not be sent keeps the sentence saying why.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from storage.authority import SEAT, SEAT_MESSAGE, sign, verifies
from storage.database import BUSY_TIMEOUT_S, Database

QueueStatus = Literal["waiting", "answering", "failed"]

TOKEN_BYTES = 32
"""Random bytes in a seat's token (43 URL-safe characters)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One participant's seat: their name as the space spells it, and their conversation."""

    conversation_id: str
    participant: str
    token: str
    connections: int = 0


@dataclass(frozen=True, slots=True)
class QueuedMessage:
    """A message sent at a seat that the host has not finished answering."""

    id: int
    conversation_id: str
    participant: str
    content: str
    shared: bool
    status: QueueStatus
    record_id: str | None
    error: str | None


def _now() -> str:
    return datetime.now(UTC).isoformat()


def new_token() -> str:
    """A seat token: unguessable, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


_SEAT_COLUMNS = "conversation_id, participant, token, connections, created_at, mac"
_QUEUE_COLUMNS = (
    "id, conversation_id, participant, content, shared, status, record_id, error, created_at, mac"
)


def seat_mac(token: str, conversation_id: str, participant: str, created_at: str) -> str:
    """The MAC of a seat opened here (see :mod:`storage.authority`)."""
    return sign(SEAT, (token, conversation_id, participant, created_at))


def seat_made_here(row: Any) -> bool:
    """A seat row (read as ``_SEAT_COLUMNS``) that this user opened here: its MAC over token,
    conversation, participant and time verifies. Any other seat opens nothing."""
    fields = (row[2], row[0], row[1], row[4])
    return verifies(SEAT, fields, row[5])


def message_mac(
    place: int, conversation_id: str, participant: str, content: str, shared: bool, at: str
) -> str:
    """The MAC of a message sent at a seat here (see :mod:`storage.authority`)."""
    return sign(SEAT_MESSAGE, (place, conversation_id, participant, content, int(shared), at))


def message_sent_here(row: Any) -> bool:
    """A queued row (read as ``_QUEUE_COLUMNS``) that a seat of this user's host put in line:
    its MAC over place, conversation, sender, words, audience and time verifies. Any other row
    is neither shown nor answered."""
    fields = (row[0], row[1], row[2], row[3], int(row[4]), row[8])
    return verifies(SEAT_MESSAGE, fields, row[9])


def _seat(row: Any) -> Seat:
    return Seat(str(row[0]), str(row[1]), str(row[2]), int(row[3]))


def _queued(row: Any) -> QueuedMessage:
    return QueuedMessage(
        id=int(row[0]),
        conversation_id=str(row[1]),
        participant=str(row[2]),
        content=str(row[3]),
        shared=bool(row[4]),
        status=row[5],
        record_id=None if row[6] is None else str(row[6]),
        error=None if row[7] is None else str(row[7]),
    )


class SeatBook:
    """Seats and seat messages of the database at ``path`` (its own connection)."""

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self._db = Database(self.path, busy_timeout_s=busy_timeout_s)

    def close(self) -> None:
        self._db.close()

    # -- seats ----------------------------------------------------------------------------

    def open_seats(self, conversation_id: str, participants: Sequence[str]) -> list[Seat]:
        """A valid seat for each of ``participants`` (keeping a seat one already has), in
        their order."""
        with self._db.write() as conn:
            for name in participants:
                held = conn.execute(
                    f"SELECT {_SEAT_COLUMNS} FROM space_seats WHERE conversation_id = ?"
                    " AND participant = ? AND revoked_at IS NULL",
                    (conversation_id, name),
                ).fetchall()
                if not any(map(seat_made_here, held)):
                    token, at = new_token(), _now()
                    conn.execute(
                        "INSERT INTO space_seats (token, conversation_id, participant, created_at,"
                        " mac) VALUES (?, ?, ?, ?, ?)",
                        (
                            token,
                            conversation_id,
                            name,
                            at,
                            seat_mac(token, conversation_id, name, at),
                        ),
                    )
        seats = {seat.participant: seat for seat in self.seats(conversation_id)}
        return [seats[name] for name in participants]

    def seats(self, conversation_id: str) -> list[Seat]:
        """The space's valid seats, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_SEAT_COLUMNS} FROM space_seats WHERE conversation_id = ?"
                " AND revoked_at IS NULL ORDER BY created_at, participant",
                (conversation_id,),
            ).fetchall()
        return [_seat(row) for row in rows if seat_made_here(row)]

    def seat_for(self, token: str) -> Seat | None:
        """The valid seat ``token`` opens, or ``None`` (unknown or revoked)."""
        if not token:
            return None
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_SEAT_COLUMNS} FROM space_seats WHERE token = ? AND revoked_at IS NULL",
                (token,),
            ).fetchone()
        return None if row is None or not seat_made_here(row) else _seat(row)

    def close_space(self, conversation_id: str) -> int:
        """Revoke every seat of the space; returns how many were valid."""
        with self._db.write() as conn:
            cursor = conn.execute(
                "UPDATE space_seats SET revoked_at = ?, connections = 0"
                " WHERE conversation_id = ? AND revoked_at IS NULL",
                (_now(), conversation_id),
            )
            return cursor.rowcount

    def connected(self, token: str, change: int) -> None:
        """Count a connection to the seat opening (``+1``) or ending (``-1``)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE space_seats SET connections = max(connections + ?, 0) WHERE token = ?",
                (change, token),
            )

    def forget_connections(self, conversation_id: str) -> None:
        """No seat of the space is connected (a host starting again after a crash)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE space_seats SET connections = 0 WHERE conversation_id = ?",
                (conversation_id,),
            )

    # -- messages waiting at seats --------------------------------------------------------

    def enqueue(self, conversation_id: str, participant: str, content: str, shared: bool) -> int:
        """Put a seat's message in line for the host; returns its place (an id). The
        participant's notes of earlier messages stored but left unanswered (:meth:`mark_failed`
        after the record was written) go: the new message is their answer to them."""
        with self._db.write() as conn:
            conn.execute(
                "DELETE FROM seat_messages WHERE conversation_id = ? AND participant = ?"
                " AND status = 'failed' AND record_id IS NOT NULL",
                (conversation_id, participant),
            )
            at = _now()
            cursor = conn.execute(
                "INSERT INTO seat_messages"
                " (conversation_id, participant, content, shared, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (conversation_id, participant, content, int(shared), at),
            )
            place = int(cursor.lastrowid or 0)
            mac = message_mac(place, conversation_id, participant, content, shared, at)
            conn.execute("UPDATE seat_messages SET mac = ? WHERE id = ?", (mac, place))
            return place

    def queued(self, conversation_id: str, participant: str | None = None) -> list[QueuedMessage]:
        """The space's messages not yet answered, oldest first; with ``participant``, only
        theirs (what a seat shows as waiting: never another person's words)."""
        sql = f"SELECT {_QUEUE_COLUMNS} FROM seat_messages WHERE conversation_id = ?"
        params: tuple[str, ...] = (conversation_id,)
        if participant is not None:
            sql += " AND participant = ?"
            params += (participant,)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY id", params).fetchall()
        return [_queued(row) for row in rows if message_sent_here(row)]

    def next_in_line(self, conversation_id: str) -> QueuedMessage | None:
        """The oldest message the host has still to answer (one it was answering first);
        only a message sent at a seat here (see :func:`storage.seats.message_sent_here`)."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_QUEUE_COLUMNS} FROM seat_messages WHERE conversation_id = ?"
                " AND status != 'failed' ORDER BY status = 'waiting', id",
                (conversation_id,),
            ).fetchall()
        return next((_queued(row) for row in rows if message_sent_here(row)), None)

    def mark_answering(self, message_id: int, record_id: str | None = None) -> None:
        """The host took the message (and, with ``record_id``, stored it as that record)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE seat_messages SET status = 'answering',"
                " record_id = coalesce(?, record_id) WHERE id = ?",
                (record_id, message_id),
            )

    def mark_answered(self, message_id: int) -> None:
        """The message is a record of the conversation and its turn ended: out of line."""
        with self._db.write() as conn:
            conn.execute("DELETE FROM seat_messages WHERE id = ?", (message_id,))

    def mark_failed(self, message_id: int, sentence: str) -> None:
        """The message could not be stored, or (with its record written) its reply failed;
        ``sentence`` tells its sender what happened and what to do."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE seat_messages SET status = 'failed', error = ? WHERE id = ?",
                (sentence, message_id),
            )
