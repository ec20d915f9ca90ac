"""Consent requests on a real SQLite file: only the participant asked reads and answers their
question, whatever script their name is in; an answer is given once; a withdrawn question is
gone.

The class, with generated names, spellings and decisions: a viewer's waiting list holds exactly
the unanswered questions asked of them (the facilitator's, all of them); an answer from anyone
but the one asked is refused and changes nothing.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.consents import DECISIONS, ConsentBook, ConsentRefused
from storage.sqlite_store import SqliteConversationStore

PEOPLE = ("Alex", "Élodie", "ZOË")
SPELLINGS = {"Alex": ("alex", "ALEX"), "Élodie": ("élodie", "ÉLODIE"), "ZOË": ("zoë", "Zoë")}


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(PEOPLE),
    st.sampled_from(PEOPLE),
    st.sampled_from(DECISIONS),
    st.integers(0, 1),
)
def test_only_the_one_asked_reads_and_answers_their_question(
    asked: str, answering: str, decision: str, spelling: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteConversationStore(Path(folder) / "weaver.db")
        book = ConsentBook(store.path)
        try:
            space = store.create_conversation("mediator", "t", meta={"participants": list(PEOPLE)})
            book.ask(space.id, "c1", [asked], "post_to_shared", "The words.")
            for viewer in PEOPLE:
                for name in (viewer, *SPELLINGS[viewer]):
                    mine = [r.participant for r in book.waiting(space.id, name)]
                    assert mine == ([asked] if viewer == asked else [])
            assert [r.participant for r in book.waiting(space.id, None)] == [asked]
            who = SPELLINGS[answering][spelling]
            if answering != asked:
                with pytest.raises(ConsentRefused):
                    book.answer("c1", who, decision, "Mine.")
                assert book.for_call("c1")[0].decision is None
                return
            book.answer("c1", who, decision, "Mine.")
            assert book.for_call("c1")[0].decision == decision
            assert book.waiting(space.id, asked) == []
            with pytest.raises(ConsentRefused, match="answered already"):
                book.answer("c1", who, "allow")
        finally:
            book.close()
            store.close()


def test_an_edit_needs_words_and_a_withdrawn_question_is_gone(tmp_path: Path) -> None:
    with SqliteConversationStore(tmp_path / "weaver.db") as store:
        space = store.create_conversation("mediator", "t", meta={"participants": ["Sam"]})
        book = ConsentBook(store.path)
        try:
            book.ask(space.id, "c1", ["Sam"], "post_to_shared", "The words.")
            book.ask(space.id, "c1", ["Sam"], "post_to_shared", "Asked again: kept as it was.")
            with pytest.raises(ConsentRefused, match="Write the words you allow"):
                book.answer("c1", "Sam", "edit", "  ")
            assert book.for_call("c1")[0].text == "The words."
            later = datetime.now(UTC) + timedelta(seconds=1)
            assert book.withdraw_before(space.id, later) == 1
            assert book.waiting(space.id, "Sam") == []
            with pytest.raises(ConsentRefused):
                book.answer("c1", "Sam", "allow")
        finally:
            book.close()
