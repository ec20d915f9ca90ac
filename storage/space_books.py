"""A shared space's statement answers and consent requests, for a storage target.

They are kept in the SQLite file beside the records (:mod:`storage.statement_answers`,
:mod:`storage.consents`); the PostgreSQL server does not keep them yet. On a server the books
are empty and a write is one sentence (a :class:`~storage.store.StorageError`): nobody can
answer a statement there, and the mediator posts nothing that needs someone's consent (it is
told this space cannot ask them), so no answer, consent or "agreed" is ever made up.
"""

from __future__ import annotations

from datetime import datetime

from storage.backend import Where, sqlite_file
from storage.consents import ConsentBook, ConsentRequest
from storage.statement_answers import Answer, AnswerBook
from storage.store import StorageError

NOT_ON_A_SERVER = (
    "Statements and consent are kept only in a local SQLite store so far: in a space on a "
    "PostgreSQL server they cannot be answered."
)


class _NoAnswers(AnswerBook):
    def __init__(self) -> None:  # no file: nothing to open
        pass

    def close(self) -> None:
        pass

    def answer(
        self,
        conversation_id: str,
        record_id: str,
        participant: str,
        answer: str,
        critique: str = "",
        *,
        shared: bool = False,
    ) -> None:
        raise StorageError(NOT_ON_A_SERVER)

    def share(self, record_id: str, participant: str) -> bool:
        raise StorageError(NOT_ON_A_SERVER)

    def answers(self, conversation_id: str, viewer: str | None, everyone: int) -> list[Answer]:
        return []


class _NoConsents(ConsentBook):
    def __init__(self) -> None:  # no file: nothing to open
        pass

    def close(self) -> None:
        pass

    def ask(
        self, conversation_id: str, call_id: str, participants: list[str], tool: str, text: str
    ) -> None:
        raise StorageError(NOT_ON_A_SERVER)

    def answer(self, call_id: str, participant: str, decision: str, edited: str = "") -> None:
        raise StorageError(NOT_ON_A_SERVER)

    def for_call(self, call_id: str) -> list[ConsentRequest]:
        return []

    def waiting(self, conversation_id: str, viewer: str | None) -> list[ConsentRequest]:
        return []

    def withdraw_before(self, conversation_id: str, before: datetime) -> int:
        return 0


def open_answer_book(where: Where) -> AnswerBook:
    file = sqlite_file(where)
    return AnswerBook(file) if file is not None else _NoAnswers()


def open_consent_book(where: Where) -> ConsentBook:
    file = sqlite_file(where)
    return ConsentBook(file) if file is not None else _NoConsents()
