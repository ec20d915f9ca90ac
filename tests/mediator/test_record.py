"""The record of a mediation (``space record``): the agreed statements with their versions and
endorsements, what is open, the dates; a participant's copy adds their own private exchange
and answers. Real SQLite file.

The class, with generated cases: whatever was said privately and whatever critiques were
written, the shared record holds none of them, and a participant's copy holds their own and
nobody else's.
"""

from __future__ import annotations

import string
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.shared_space.record import space_record
from agents.shared_space.space import new_space
from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import AnswerBook

PEOPLE = ("Alex", "Sam", "Kim")


def _statement(store: SqliteConversationStore, space: str, parent: str, number: int, text: str,
               revises: str | None = None) -> str:  # fmt: skip
    return store.add_message(
        space, "tool", "Statement posted.", parent,
        meta={"name": "propose_statement" if number == 1 else "revise_statement",
              "kind": "statement", "visibility": "shared", "statement": "S1",
              "topic": "monthly budget", "statement_version": number, "revises": revises,
              "delivered_content": text},
    ).id  # fmt: skip


def session(
    store: SqliteConversationStore, private: dict[str, str], critiques: dict[str, str]
) -> str:
    """A space where each person said something privately (and was answered privately), a
    statement was revised once and agreed by all, with critiques to version 1."""
    space = new_space(store, PEOPLE, "Budget talk").id
    leaf = store.add_message(space, "user", "Let's start.", None,
                             meta={"sender": "Alex", "visibility": "shared"}).id  # fmt: skip
    for name, words in private.items():
        said = store.add_message(space, "user", words, leaf, meta={"sender": name})
        leaf = store.add_message(space, "assistant", f"Reply to {name}: noted", said.id,
                                 meta={"visibility": name}).id  # fmt: skip
    v1 = _statement(store, space, leaf, 1, "We save 500.")
    v2 = _statement(store, space, v1, 2, "We save 400 and 100 for the trip.", v1)
    store.add_message(space, "tool", "Agenda set.", v2,
                      meta={"name": "set_agenda", "kind": "agenda", "visibility": "shared",
                            "topics": ["monthly budget", "holiday"]})  # fmt: skip
    book = AnswerBook(store.path)
    try:
        for name in PEOPLE:
            book.answer(space, v1, name, "partly", critiques.get(name, ""))
            book.answer(space, v2, name, "agree")
    finally:
        book.close()
    return space


def test_the_record_lists_what_was_agreed_with_versions_and_endorsements(
    store: SqliteConversationStore,
) -> None:
    space = session(store, {"Sam": "My hidden debt."}, {"Sam": "The trip matters."})
    shared = space_record(store, space)
    assert "# Record: Budget talk" in shared
    assert "### S1 · monthly budget" in shared
    assert "Agreed at version 2" in shared
    assert "> We save 400 and 100 for the trip." in shared
    assert "Endorsed by: Alex (" in shared
    assert "Sam (" in shared
    assert "Kim (" in shared
    assert "- v1 (" in shared
    assert "We save 500." in shared
    assert "No statement is open." in shared
    assert "- monthly budget: agreed\n- holiday: open" in shared
    assert "My hidden debt." not in shared
    assert "The trip matters." not in shared
    sams = space_record(store, space, "sam")
    assert "(Sam's copy)" in sams
    assert "My hidden debt." in sams
    assert "Reply to Sam: noted" in sams
    assert '- S1 v1: partly ("The trip matters.")' in sams


words = st.text(alphabet=string.ascii_lowercase, min_size=6, max_size=12).map(lambda w: f"zq{w}")


@settings(max_examples=15, deadline=None)
@given(
    st.dictionaries(st.sampled_from(PEOPLE), words, min_size=1),
    st.dictionaries(st.sampled_from(PEOPLE), words),
)
def test_no_copy_holds_another_person_s_private_words_or_critique(
    said: dict[str, str], wrote: dict[str, str]
) -> None:
    private = {name: f"{word}said{name.lower()}" for name, word in said.items()}
    critiques = {name: f"{word}wrote{name.lower()}" for name, word in wrote.items()}
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteConversationStore(Path(folder) / "weaver.db")
        try:
            space = session(store, private, critiques)
            records: dict[str | None, str] = {None: space_record(store, space)}
            records.update({name: space_record(store, space, name) for name in PEOPLE})
        finally:
            store.close()
    for reader, text in records.items():
        for author in PEOPLE:
            own = reader == author
            for secret in (private.get(author), critiques.get(author)):
                if secret:
                    assert (secret in text) == own, (reader, author, secret)
