"""A message is in line for the host only when a seat served here sent it (see
:mod:`storage.seats` and :mod:`storage.authority`).

The class, on every backend: {sent here, signed with another key, any one covered column
edited, copied to another place or space, without a MAC, written straight into the table} ->
only the message sent here is shown at its seat or answered by the host.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.authority import SEAT_MESSAGE, sign
from storage.space_books import seat_book_for
from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore

VARIANTS = ("here", "other_key", "edited", "moved", "no_mac", "written_in")
_EDITABLE = ("conversation_id", "participant", "content", "shared", "created_at")


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
@given(
    variant=st.sampled_from(VARIANTS),
    column=st.sampled_from(_EDITABLE),
    words=st.text(min_size=1, max_size=30).filter(lambda t: "\x00" not in t),
)
def test_only_a_message_sent_here_is_in_line(
    backend: ConversationStore, variant: str, column: str, words: str
) -> None:
    space = backend.create_conversation("mediator", "t", meta={"participants": ["Sam"]})
    other = backend.create_conversation("mediator", "t", meta={"participants": ["Sam"]})
    book = seat_book_for(backend)
    try:
        if variant == "written_in":
            _tamper(
                backend,
                "INSERT INTO seat_messages (conversation_id, participant, content, shared,"
                " created_at, mac) VALUES (?, 'Sam', ?, 1, 't', ?)",
                (space.id, words, "0" * 64),
            )
        else:
            place = book.enqueue(space.id, "Sam", words, True)
        if variant == "other_key":
            mac = sign(SEAT_MESSAGE, (place, space.id, "Sam", words, 1, "t"), key=os.urandom(32))
            _tamper(
                backend,
                "UPDATE seat_messages SET created_at = 't', mac = ? WHERE id = ?",
                (mac, place),
            )
        elif variant == "edited":
            value: object = {"conversation_id": other.id, "shared": 0}.get(column, "x")
            _tamper(backend, f"UPDATE seat_messages SET {column} = ? WHERE id = ?", (value, place))
        elif variant == "moved":
            for target in (space.id, other.id):  # a replay in line, and one in another space
                _tamper(
                    backend,
                    "INSERT INTO seat_messages (conversation_id, participant, content, shared,"
                    " created_at, mac) SELECT ?, participant, content, shared, created_at, mac"
                    " FROM seat_messages WHERE id = ?",
                    (target, place),
                )
            _tamper(backend, "DELETE FROM seat_messages WHERE id = ?", (place,))
        elif variant == "no_mac":
            _tamper(backend, "UPDATE seat_messages SET mac = NULL WHERE id = ?", (place,))
        for conversation in (space.id, other.id):
            shown = book.queued(conversation) + book.queued(conversation, "Sam")
            taken = book.next_in_line(conversation)
            if variant == "here" and conversation == space.id:
                assert [m.content for m in shown] == [words, words]
                assert taken is not None
                assert taken.id == place
            else:
                assert shown == []
                assert taken is None
    finally:
        book.close()
