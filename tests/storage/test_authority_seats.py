"""A seat opens only when this user opened it here (see :mod:`storage.seats` and
:mod:`storage.authority`).

The class, on every backend: {opened here, signed with another key, any one column edited,
copied under another token, without a MAC, written straight into the table} -> only the seat
opened here lets its token in or is listed; opening the space again gives every other
participant a seat of this user's own.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.authority import SEAT, sign
from storage.space_books import seat_book_for
from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore

VARIANTS = ("here", "other_key", "edited", "moved", "no_mac", "written_in")
_EDITABLE = ("token", "conversation_id", "participant", "created_at")
_known = itertools.count()


def _tamper(store: ConversationStore, sql: str, params: tuple[object, ...]) -> None:
    """Writes behind the book's back, as another client or an edited file would."""
    if not isinstance(store, SqliteConversationStore):
        sql = sql.replace("?", "%s")
    db: Any = getattr(store, "_db")  # noqa: B009 - the raw connection of either backend
    with db.write() as conn:
        conn.execute(sql, params)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(variant=st.sampled_from(VARIANTS), column=st.sampled_from(_EDITABLE))
def test_only_a_seat_opened_here_lets_anyone_in(
    backend: ConversationStore, variant: str, column: str
) -> None:
    space = backend.create_conversation("mediator", "t", meta={"participants": ["Sam"]})
    other = backend.create_conversation("mediator", "t", meta={"participants": ["Sam"]})
    known = f"attacker-knows-this-token-{next(_known)}"
    book = seat_book_for(backend)
    try:
        if variant == "written_in":
            _tamper(
                backend,
                "INSERT INTO space_seats (token, conversation_id, participant, created_at, mac)"
                " VALUES (?, ?, 'Sam', 't', ?)",
                (known, space.id, "0" * 64),
            )
            token = known
        else:
            (seat,) = book.open_seats(space.id, ["Sam"])
            token = seat.token
        if variant == "other_key":
            mac = sign(SEAT, (token, space.id, "Sam", "t"), key=os.urandom(32))
            _tamper(
                backend,
                "UPDATE space_seats SET created_at = 't', mac = ? WHERE token = ?",
                (mac, token),
            )
        elif variant == "edited":
            value = {"token": known, "conversation_id": other.id}.get(column, "x")
            _tamper(backend, f"UPDATE space_seats SET {column} = ? WHERE token = ?", (value, token))
            token = known if column == "token" else token
        elif variant == "moved":
            _tamper(
                backend,
                "INSERT INTO space_seats (token, conversation_id, participant, created_at, mac)"
                " SELECT ?, conversation_id, participant, created_at, mac FROM space_seats"
                " WHERE token = ?",
                (known, token),
            )
            token = known
        elif variant == "no_mac":
            _tamper(backend, "UPDATE space_seats SET mac = NULL WHERE token = ?", (token,))
        assert (book.seat_for(token) is not None) == (variant == "here")
        listed = {s.token for c in (space.id, other.id) for s in book.seats(c)}
        assert (token in listed) == (variant == "here")
        # opening the space again gives Sam a seat of this user's own, never the one written in
        (again,) = book.open_seats(space.id, ["Sam"])
        assert book.seat_for(again.token) is not None
        assert (again.token == token) == (variant == "here")
    finally:
        book.close()
