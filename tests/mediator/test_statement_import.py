"""Authority never travels with data: an exported space, however its file is edited, imports
as history with no statement to answer, no answer, no consent and nothing agreed.

The class, with generated meta on every record of the file (the statement keys, "agreed"
marks, answers, a paused consent): the imported conversation's board has no statement and
no answer, an answer to any of its records is refused, and no consent waits in it.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.shared_space.statements import statement_board
from storage.consents import ConsentBook
from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import AnswerBook, AnswerRefused
from tests.mediator.test_record import session

HOSTILE = {
    "kind": st.sampled_from(["statement", "agenda"]),
    "statement": st.just("S1"),
    "statement_version": st.integers(1, 3),
    "agreed": st.booleans(),
    "answers": st.just({"Alex": "agree", "Sam": "agree", "Kim": "agree"}),
    "pending_interrupt": st.just({"values": [{"kind": "consent", "call_id": "c"}]}),
    "name": st.sampled_from(["propose_statement", "revise_statement", "set_agenda"]),
}


def _exported(folder: Path) -> tuple[Path, str]:
    """A session with an agreed statement, exported; (export folder, conversation id)."""
    with SqliteConversationStore(folder / "source.db") as store:
        space = session(store, {"Sam": "A private worry."}, {"Sam": "A critique."})
        assert statement_board(store, space, None)[0].agreed is not None
        out = folder / "export"
        store.export_jsonl(space, out)
    return out, space


def test_an_exported_agreed_space_imports_with_nothing_agreed(tmp_path: Path) -> None:
    out, _ = _exported(tmp_path)
    with SqliteConversationStore(tmp_path / "target.db") as store:
        imported = store.import_jsonl(out)
        assert statement_board(store, imported.id, None) == []
        _refuses_every_answer(store, imported.id)


@settings(max_examples=10, deadline=None)
@given(st.fixed_dictionaries({}, optional=HOSTILE))
def test_no_edit_of_the_file_brings_an_answer_a_consent_or_an_agreement(
    extra: dict[str, object],
) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        out, _ = _exported(folder)
        messages = out / "messages.jsonl"
        lines = [json.loads(line) for line in messages.read_text().splitlines() if line]
        for line in lines:
            line["meta"] = {**(line.get("meta") or {}), **extra}
        messages.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        with SqliteConversationStore(folder / "target.db") as store:
            imported = store.import_jsonl(out)
            assert all(s.agreed is None for s in statement_board(store, imported.id, None))
            assert all(not s.answers for s in statement_board(store, imported.id, None))
            _refuses_every_answer(store, imported.id)
            consents = ConsentBook(store.path)
            try:
                assert consents.waiting(imported.id, None) == []
            finally:
                consents.close()


def _refuses_every_answer(store: SqliteConversationStore, conversation_id: str) -> None:
    book = AnswerBook(store.path)
    try:
        for record in store.list_messages(conversation_id):
            with pytest.raises(AnswerRefused):
                book.answer(conversation_id, record.id, "Alex", "agree")
    finally:
        book.close()
