"""Answers to a shared space's statements, on a real SQLite file: each participant's act,
read by each viewer only as far as they may (the condition is in the query).

The class: for every set of answers (any participants, values, critiques, shared or not) and
every viewer, a viewer reads who has answered; the answer itself only when it is theirs, its
author shared it, or every participant has answered that version; a critique only when it is
theirs or its author shared it; the facilitator reads everything. An answer is kept only for a
statement of the same space and from one of its participants.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import ANSWERS, AnswerBook, AnswerRefused

PEOPLE = ("Alex", "Élodie", "ZOË")
"""Names beyond ASCII: SQLite's ``lower`` folds only ASCII, Python's every script."""


def _space(store: SqliteConversationStore, people: tuple[str, ...] = PEOPLE) -> tuple[str, str]:
    """A space and one statement record in it: (conversation id, statement record id)."""
    space = store.create_conversation("mediator", "t", meta={"participants": list(people)})
    user = store.add_message(space.id, "user", "hi", None, meta={"sender": people[0]})
    statement = store.add_message(
        space.id,
        "tool",
        "Statement S1 posted.",
        user.id,
        meta={"name": "propose_statement", "kind": "statement", "visibility": "shared"},
    )
    return space.id, statement.id


@pytest.fixture
def book(store: SqliteConversationStore) -> Iterator[AnswerBook]:
    answers = AnswerBook(store.path)
    yield answers
    answers.close()


def test_a_participant_s_critique_stays_theirs_until_they_share_it(
    store: SqliteConversationStore, book: AnswerBook
) -> None:
    space, record = _space(store, ("Alex", "Sam"))
    book.answer(space, record, "Sam", "partly", "Too little for the trip.")  # as seated
    (seen_by_alex,) = book.answers(space, "Alex", 2)
    assert (seen_by_alex.participant, seen_by_alex.answer, seen_by_alex.critique) == (
        "Sam",
        None,
        None,
    )
    book.answer(space, record, "Alex", "agree")
    by_alex = {a.participant: a for a in book.answers(space, "Alex", 2)}
    assert by_alex["Sam"].answer == "partly"  # everyone has answered: answers show
    assert by_alex["Sam"].critique is None  # the critique is still Sam's
    assert book.share(record, "Sam")
    by_alex = {a.participant: a for a in book.answers(space, "alex", 2)}
    assert by_alex["Sam"].critique == "Too little for the trip."
    assert not book.share(record, "Kim")


def test_an_answer_that_is_not_one_or_not_to_a_statement_of_the_space_is_refused(
    store: SqliteConversationStore, book: AnswerBook
) -> None:
    space, record = _space(store)
    other, other_record = _space(store)
    plain = store.add_message(space, "user", "not a statement", None, meta={"sender": "Alex"})
    with pytest.raises(AnswerRefused, match="answer agree, partly or disagree"):
        book.answer(space, record, "Alex", "yes")
    with pytest.raises(AnswerRefused, match="not in this space"):
        book.answer(space, other_record, "Alex", "agree")
    with pytest.raises(AnswerRefused, match="not in this space"):
        book.answer(space, plain.id, "Alex", "agree")
    with pytest.raises(AnswerRefused, match="not a participant"):
        book.answer(space, record, "Mallory", "agree")
    assert book.answers(space, None, 3) == []
    assert book.answers(other, None, 3) == []


def test_a_later_answer_replaces_the_participant_s_earlier_one(
    store: SqliteConversationStore, book: AnswerBook
) -> None:
    space, record = _space(store)
    book.answer(space, record, "ZOË", "disagree", "No.")
    book.answer(space, record, "zoë", "agree")
    (answer,) = book.answers(space, None, 3)
    assert (answer.answer, answer.critique) == ("agree", "")


answer_sets = st.dictionaries(
    st.sampled_from(PEOPLE),
    st.tuples(st.sampled_from(ANSWERS), st.text(max_size=20), st.booleans()),
)


@settings(max_examples=40, deadline=None)
@given(answer_sets, st.sampled_from((*PEOPLE, "élodie", "zoë", None, "shared")))
def test_every_viewer_reads_only_what_the_authors_allow(
    given_answers: dict[str, tuple[str, str, bool]], viewer: str | None
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteConversationStore(Path(folder) / "weaver.db")
        book = AnswerBook(store.path)
        try:
            space, record = _space(store)
            for name, (value, critique, shared) in given_answers.items():
                book.answer(space, record, name, value, critique, shared=shared)
            seen = {a.participant: a for a in book.answers(space, viewer, len(PEOPLE))}
        finally:
            book.close()
            store.close()
    assert set(seen) == set(given_answers)  # who has answered: everyone's to see
    everyone_answered = len(given_answers) == len(PEOPLE)
    for name, (value, critique, shared) in given_answers.items():
        own = viewer is None or viewer.casefold() == name.casefold()
        answer = seen[name]
        assert answer.answer == (value if own or shared or everyone_answered else None)
        assert answer.critique == (critique if own or shared else None)
