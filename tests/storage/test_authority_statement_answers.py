"""A statement answer counts only when given here (see :mod:`storage.statement_answers` and
:mod:`storage.authority`).

The class, on every backend: answer x {given here, signed with another key, any one column
edited, copied to another statement, without a MAC, written straight into the table} -> only
the answer given here is read, shown or counted toward "everyone answered".
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.authority import STATEMENT_ANSWER, sign
from storage.space_books import answer_book_for
from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import ANSWERS
from storage.store import ConversationStore

VARIANTS = ("here", "other_key", "edited", "moved", "no_mac", "written_in")
_EDITABLE = ("answer", "critique", "shared", "participant", "answered_at", "conversation_id")


def _tamper(store: ConversationStore, sql: str, params: tuple[object, ...]) -> None:
    """Writes behind the book's back, as another client or an edited file would."""
    if not isinstance(store, SqliteConversationStore):
        sql = sql.replace("?", "%s")
    db: Any = getattr(store, "_db")  # noqa: B009 - the raw connection of either backend
    with db.write() as conn:
        conn.execute(sql, params)


def _space(store: ConversationStore) -> tuple[str, str, str]:
    space = store.create_conversation("mediator", "t", meta={"participants": ["Sam"]})
    user = store.add_message(space.id, "user", "hi", None, meta={"sender": "Sam"})
    meta = {"kind": "statement", "visibility": "shared"}
    first = store.add_message(space.id, "tool", "S1", user.id, meta=meta)
    second = store.add_message(space.id, "tool", "S2", user.id, meta=meta)
    return space.id, first.id, second.id


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    variant=st.sampled_from(VARIANTS),
    value=st.sampled_from(ANSWERS),
    column=st.sampled_from(_EDITABLE),
)
def test_only_an_answer_given_here_counts(
    backend: ConversationStore, variant: str, value: str, column: str
) -> None:
    space, statement, other_statement = _space(backend)
    other_space, _, _ = _space(backend)
    target = statement
    book = answer_book_for(backend)
    try:
        if variant == "written_in":
            _tamper(
                backend,
                "INSERT INTO statement_answers (record_id, conversation_id, participant,"
                " participant_key, answer, critique, shared, answered_at, mac)"
                " VALUES (?, ?, 'Sam', 'sam', ?, 'c', 1, 't', ?)",
                (statement, space, value, "0" * 64),
            )
        else:
            book.answer(space, statement, "Sam", value, "why")
        if variant == "other_key":
            fields = (statement, space, "Sam", "sam", value, "why", 0, "t")
            mac = sign(STATEMENT_ANSWER, fields, key=os.urandom(32))
            _tamper(
                backend,
                "UPDATE statement_answers SET answered_at = 't', mac = ? WHERE record_id = ?",
                (mac, statement),
            )
        elif variant == "edited":
            changed: object = {
                "answer": "agree" if value != "agree" else "disagree",
                "shared": 1,
                "conversation_id": other_space,
                "answered_at": "2020-01-01T00:00:00+00:00",
            }.get(column, "x")
            _tamper(
                backend,
                f"UPDATE statement_answers SET {column} = ? WHERE record_id = ?",
                (changed, statement),
            )
        elif variant == "moved":
            target = other_statement
            _tamper(
                backend,
                "INSERT INTO statement_answers (record_id, conversation_id, participant,"
                " participant_key, answer, critique, shared, answered_at, mac) SELECT ?,"
                " conversation_id, participant, participant_key, answer, critique, shared,"
                " answered_at, mac FROM statement_answers WHERE record_id = ?",
                (other_statement, statement),
            )
        elif variant == "no_mac":
            _tamper(
                backend, "UPDATE statement_answers SET mac = NULL WHERE record_id = ?", (statement,)
            )
        seen = [
            a
            for conversation in (space, other_space)
            for viewer in (None, "Sam", "shared")
            for a in book.answers(conversation, viewer, 1)
            if a.record_id == target
        ]
        if variant == "here":
            assert {(a.answer, a.critique) for a in seen if a.critique} == {(value, "why")}
            assert book.share(target, "Sam")
        else:
            assert seen == []
            assert not book.share(target, "Sam")  # nothing to share: it is no answer
    finally:
        book.close()
