"""The seats of a shared space and the messages waiting at them, on PostgreSQL: the same book
as :class:`storage.seats.SeatBook` (whose module says what seats are), on the server, so the
hosts of one space share its seats and its line of messages."""

from __future__ import annotations

from collections.abc import Sequence

from storage.pg_database import PgDatabase
from storage.seats import (
    QueuedMessage,
    Seat,
    _now,
    _queued,
    _seat,
    message_mac,
    message_sent_here,
    new_token,
    seat_mac,
    seat_made_here,
)

_SEAT_COLUMNS = "conversation_id, participant, token, connections, created_at, mac"
_QUEUE_COLUMNS = (
    "id, conversation_id, participant, content, shared, status, record_id, error, created_at, mac"
)


class PgSeatBook:
    """Seats and seat messages of the database at ``url`` (a pool of its own)."""

    def __init__(self, url: str, *, pool_size: int = 2) -> None:
        self.url = url
        self._db = PgDatabase(url, pool_size=pool_size)

    def close(self) -> None:
        self._db.close()

    # -- seats ----------------------------------------------------------------------------

    def open_seats(self, conversation_id: str, participants: Sequence[str]) -> list[Seat]:
        """A valid seat for each of ``participants`` (keeping a seat one already has)."""
        with self._db.write() as conn:
            for name in participants:
                held = conn.execute(
                    f"SELECT {_SEAT_COLUMNS} FROM space_seats WHERE conversation_id = %s"
                    " AND participant = %s AND revoked_at IS NULL",
                    (conversation_id, name),
                ).fetchall()
                if not any(map(seat_made_here, held)):
                    token, at = new_token(), _now()
                    conn.execute(
                        "INSERT INTO space_seats (token, conversation_id, participant, created_at,"
                        " mac) VALUES (%s, %s, %s, %s, %s)",
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
                f"SELECT {_SEAT_COLUMNS} FROM space_seats WHERE conversation_id = %s"
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
                f"SELECT {_SEAT_COLUMNS} FROM space_seats WHERE token = %s AND revoked_at IS NULL",
                (token,),
            ).fetchone()
        return None if row is None or not seat_made_here(row) else _seat(row)

    def close_space(self, conversation_id: str) -> int:
        """Revoke every seat of the space; returns how many were valid."""
        with self._db.write() as conn:
            return conn.execute(
                "UPDATE space_seats SET revoked_at = %s, connections = 0"
                " WHERE conversation_id = %s AND revoked_at IS NULL",
                (_now(), conversation_id),
            ).rowcount

    def connected(self, token: str, change: int) -> None:
        """Count a connection to the seat opening (``+1``) or ending (``-1``)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE space_seats SET connections = greatest(connections + %s, 0)"
                " WHERE token = %s",
                (change, token),
            )

    def forget_connections(self, conversation_id: str) -> None:
        """No seat of the space is connected (a host starting again after a crash)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE space_seats SET connections = 0 WHERE conversation_id = %s",
                (conversation_id,),
            )

    # -- messages waiting at seats --------------------------------------------------------

    def enqueue(self, conversation_id: str, participant: str, content: str, shared: bool) -> int:
        """Put a seat's message in line for the host; returns its place (an id). The
        participant's notes of earlier messages stored but left unanswered (:meth:`mark_failed`
        after the record was written) go: the new message is their answer to them."""
        with self._db.write() as conn:
            conn.execute(
                "DELETE FROM seat_messages WHERE conversation_id = %s AND participant = %s"
                " AND status = 'failed' AND record_id IS NOT NULL",
                (conversation_id, participant),
            )
            at = _now()
            row = conn.execute(
                "INSERT INTO seat_messages"
                " (conversation_id, participant, content, shared, created_at)"
                " VALUES (%s, %s, %s, %s, %s) RETURNING id",
                (conversation_id, participant, content, int(shared), at),
            ).fetchone()
            place = int(row[0]) if row else 0
            mac = message_mac(place, conversation_id, participant, content, shared, at)
            conn.execute("UPDATE seat_messages SET mac = %s WHERE id = %s", (mac, place))
        return place

    def queued(self, conversation_id: str, participant: str | None = None) -> list[QueuedMessage]:
        """The space's messages not yet answered, oldest first; with ``participant``, only
        theirs."""
        sql = f"SELECT {_QUEUE_COLUMNS} FROM seat_messages WHERE conversation_id = %s"
        params: tuple[str, ...] = (conversation_id,)
        if participant is not None:
            sql += " AND participant = %s"
            params += (participant,)
        with self._db.read() as conn:
            rows = conn.execute(sql + " ORDER BY id", params).fetchall()
        return [_queued(row) for row in rows if message_sent_here(row)]

    def next_in_line(self, conversation_id: str) -> QueuedMessage | None:
        """The oldest message the host has still to answer (one it was answering first);
        only a message sent at a seat here (see :func:`storage.seats.message_sent_here`)."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_QUEUE_COLUMNS} FROM seat_messages WHERE conversation_id = %s"
                " AND status != 'failed' ORDER BY status = 'waiting', id",
                (conversation_id,),
            ).fetchall()
        return next((_queued(row) for row in rows if message_sent_here(row)), None)

    def mark_answering(self, message_id: int, record_id: str | None = None) -> None:
        """The host took the message (and, with ``record_id``, stored it as that record)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE seat_messages SET status = 'answering',"
                " record_id = coalesce(%s, record_id) WHERE id = %s",
                (record_id, message_id),
            )

    def mark_answered(self, message_id: int) -> None:
        """The message is a record of the conversation and its turn ended: out of line."""
        with self._db.write() as conn:
            conn.execute("DELETE FROM seat_messages WHERE id = %s", (message_id,))

    def mark_failed(self, message_id: int, sentence: str) -> None:
        """The message could not be stored, or (with its record written) its reply failed;
        ``sentence`` tells its sender what happened and what to do."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE seat_messages SET status = 'failed', error = %s WHERE id = %s",
                (sentence, message_id),
            )
