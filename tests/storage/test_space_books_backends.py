"""A shared space's statement answers and consent requests on every backend: the same rules in
the SQLite file and on the PostgreSQL server (who may read an answer or a critique is decided
in the query; only the participant asked answers a consent), generated answer sets included."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.consents import ConsentRefused
from storage.space_books import answer_book_for, consent_book_for
from storage.statement_answers import ANSWERS, AnswerRefused
from storage.store import ConversationStore

PEOPLE = ("Alex", "Élodie", "ZOË")


def _space(store: ConversationStore) -> tuple[str, str]:
    space = store.create_conversation("mediator", "t", meta={"participants": list(PEOPLE)})
    user = store.add_message(space.id, "user", "hi", None, meta={"sender": PEOPLE[0]})
    statement = store.add_message(
        space.id,
        "tool",
        "Statement S1 posted.",
        user.id,
        meta={"name": "propose_statement", "kind": "statement", "visibility": "shared"},
    )
    return space.id, statement.id


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    given_answers=st.dictionaries(
        st.sampled_from(PEOPLE),
        st.tuples(st.sampled_from(ANSWERS), st.text(max_size=20), st.booleans()),
    ),
    viewer=st.sampled_from((*PEOPLE, "élodie", "zoë", None, "shared")),
)
def test_every_viewer_reads_only_what_the_authors_allow_on_every_backend(
    backend: ConversationStore,
    given_answers: dict[str, tuple[str, str, bool]],
    viewer: str | None,
) -> None:
    book = answer_book_for(backend)
    try:
        space, record = _space(backend)
        for name, (value, critique, shared) in given_answers.items():
            book.answer(space, record, name, value, critique.replace("\x00", ""), shared=shared)
        seen = {a.participant: a for a in book.answers(space, viewer, len(PEOPLE))}
    finally:
        book.close()
    assert set(seen) == set(given_answers)
    everyone_answered = len(given_answers) == len(PEOPLE)
    for name, (value, critique, shared) in given_answers.items():
        own = viewer is None or viewer.casefold() == name.casefold()
        assert seen[name].answer == (value if own or shared or everyone_answered else None)
        assert seen[name].critique == (critique.replace("\x00", "") if own or shared else None)


def test_answers_to_what_is_not_a_statement_or_from_a_stranger_are_refused(
    backend: ConversationStore,
) -> None:
    book = answer_book_for(backend)
    try:
        space, record = _space(backend)
        plain = backend.add_message(space, "user", "plain", None, meta={"sender": "Alex"})
        with pytest.raises(AnswerRefused):
            book.answer(space, plain.id, "Alex", "agree")
        with pytest.raises(AnswerRefused):
            book.answer(space, record, "Mallory", "agree")
        book.answer(space, record, "zoë", "disagree", "No.")
        book.answer(space, record, "ZOË", "agree")
        (answer,) = book.answers(space, None, 3)
        assert (answer.answer, answer.critique) == ("agree", "")
    finally:
        book.close()


def test_only_the_one_asked_answers_and_a_withdrawn_question_is_gone(
    open_store: Callable[[], ConversationStore],
) -> None:
    store = open_store()
    book = consent_book_for(store)
    try:
        space, _ = _space(store)
        book.ask(space, "call-1", ["Élodie", "Alex"], "post_to_shared", "What Élodie said")
        assert [r.participant for r in book.waiting(space, "élodie")] == ["Élodie"]
        with pytest.raises(ConsentRefused):
            book.answer("call-1", "Mallory", "allow")
        book.answer("call-1", "ÉLODIE", "allow")
        with pytest.raises(ConsentRefused):
            book.answer("call-1", "Élodie", "refuse")  # answered already
        assert [r.participant for r in book.waiting(space, None)] == ["Alex"]
        later = book.for_call("call-1")[0].asked_at.replace(year=3000)
        assert book.withdraw_before(space, later) == 1
        assert book.waiting(space, None) == []
        decided = {r.participant: r.decision for r in book.for_call("call-1")}
        assert decided == {"Alex": None, "Élodie": "allow"}
    finally:
        book.close()
