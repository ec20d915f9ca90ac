"""A consent answer counts only when this user's process recorded it (see
:mod:`storage.consents` and :mod:`storage.authority`).

The class, on every backend: decision x {answered here, signed with another key, any one
column edited, copied to another call, without a MAC, written straight into the table} -> only
the answer given here is read as an answer; every other reads as an open question, shown at
the seat and answerable there again.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.authority import CONSENT_ANSWER, sign
from storage.consents import DECISIONS, ConsentRefused
from storage.space_books import consent_book_for
from storage.sqlite_store import SqliteConversationStore
from storage.store import ConversationStore

VARIANTS = ("here", "other_key", "edited", "moved", "no_mac", "written_in")
_EDITABLE = ("decision", "edited", "text", "tool", "conversation_id", "answered_at")
_calls = itertools.count()


def _tamper(store: ConversationStore, sql: str, params: tuple[object, ...]) -> None:
    """Writes behind the book's back, as another client or an edited file would."""
    if not isinstance(store, SqliteConversationStore):
        sql = sql.replace("?", "%s")
    db: Any = getattr(store, "_db")  # noqa: B009 - the raw connection of either backend
    with db.write() as conn:
        conn.execute(sql, params)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    variant=st.sampled_from(VARIANTS),
    decision=st.sampled_from(DECISIONS),
    column=st.sampled_from(_EDITABLE),
    words=st.text(min_size=1, max_size=30).filter(lambda t: t.strip() and "\x00" not in t),
)
def test_only_an_answer_given_here_is_consent(
    backend: ConversationStore, variant: str, decision: str, column: str, words: str
) -> None:
    space = backend.create_conversation("mediator", "t", meta={"participants": ["Alex"]})
    other = backend.create_conversation("mediator", "t", meta={"participants": ["Alex"]})
    call = f"call-{next(_calls)}"
    target = call
    edited = words if decision == "edit" else ""
    book = consent_book_for(backend)
    try:
        book.ask(space.id, call, ["Alex"], "post_to_shared", "the words asked")
        if variant == "written_in":
            _tamper(
                backend,
                "UPDATE consent_requests SET decision = ?, edited = ?, answered_at = ?, mac = ?"
                " WHERE call_id = ?",
                (decision, edited, "t", "0" * 64, call),
            )
        else:
            book.answer(call, "Alex", decision, edited)
        if variant == "other_key":
            fields = (call, space.id, "Alex", "alex", "post_to_shared", "the words asked",
                      decision, edited, "t")  # fmt: skip
            mac = sign(CONSENT_ANSWER, fields, key=os.urandom(32))
            _tamper(
                backend,
                "UPDATE consent_requests SET answered_at = 't', mac = ? WHERE call_id = ?",
                (mac, call),
            )
        elif variant == "edited":
            value = {"decision": "allow" if decision != "allow" else "refuse",
                     "conversation_id": other.id}.get(column, "x")  # fmt: skip
            _tamper(
                backend,
                f"UPDATE consent_requests SET {column} = ? WHERE call_id = ?",
                (value, call),
            )
        elif variant == "moved":
            target = f"{call}-moved"
            _tamper(
                backend,
                "INSERT INTO consent_requests SELECT ?, conversation_id, participant,"
                " participant_key, tool, text, decision, edited, asked_at, answered_at,"
                " withdrawn_at, mac FROM consent_requests WHERE call_id = ?",
                (target, call),
            )
        elif variant == "no_mac":
            _tamper(backend, "UPDATE consent_requests SET mac = NULL WHERE call_id = ?", (call,))
        (request,) = book.for_call(target)
        assert request.waiting == (variant != "here")
        open_ids = {r.call_id for r in book.waiting(request.conversation_id, "Alex")}
        assert (target in open_ids) == (variant != "here")
        if variant == "here":
            assert request.decision == decision
            with pytest.raises(ConsentRefused):
                book.answer(target, "Alex", "allow")
        else:
            # the open question is answered at the seat as any other, and then counts
            book.answer(target, "Alex", "refuse")
            (request,) = book.for_call(target)
            assert request.decision == "refuse"
    finally:
        book.close()
