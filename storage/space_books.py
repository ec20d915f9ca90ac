"""A shared space's statement answers and consent requests, where the records are: in the
SQLite file (:mod:`storage.statement_answers`, :mod:`storage.consents`) or on the PostgreSQL
server (:mod:`storage.pg_space_books`). A store that keeps neither (one in memory, in tests)
has empty books whose writes are one sentence (a :class:`~storage.store.StorageError`): nobody
can answer a statement there, and the mediator posts nothing that needs someone's consent, so
no answer, consent or "agreed" is ever made up.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from storage.backend import Where, sqlite_file
from storage.consents import ConsentBook, ConsentRequest
from storage.seats import SeatBook
from storage.statement_answers import Answer, AnswerBook
from storage.store import StorageError

if TYPE_CHECKING:
    from storage.pg_seats import PgSeatBook

NOT_ON_A_SERVER = (
    "This space keeps no statements or consent (its store has no file or server): they "
    "cannot be answered here."
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
    if file is not None:
        return AnswerBook(file)
    from storage.pg_space_books import PgAnswerBook

    return PgAnswerBook(_server(where))


def open_consent_book(where: Where) -> ConsentBook:
    file = sqlite_file(where)
    if file is not None:
        return ConsentBook(file)
    from storage.pg_space_books import PgConsentBook

    return PgConsentBook(_server(where))


def answer_book_for(store: object) -> AnswerBook:
    """The answers kept beside ``store``'s records (empty for a store with neither file nor
    server)."""
    url, path = getattr(store, "url", None), getattr(store, "path", None)
    if isinstance(url, str) and url:
        from storage.pg_space_books import PgAnswerBook

        return PgAnswerBook(url)
    return AnswerBook(path) if path is not None else _NoAnswers()


def consent_book_for(store: object) -> ConsentBook:
    """The consent requests kept beside ``store``'s records (empty for a store with neither
    file nor server)."""
    url, path = getattr(store, "url", None), getattr(store, "path", None)
    if isinstance(url, str) and url:
        from storage.pg_space_books import PgConsentBook

        return PgConsentBook(url)
    return ConsentBook(path) if path is not None else _NoConsents()


def seat_book_for(store: object) -> SeatBook | PgSeatBook:
    """The seats kept beside ``store``'s records."""
    url = getattr(store, "url", None)
    if isinstance(url, str) and url:
        from storage.pg_seats import PgSeatBook

        return PgSeatBook(url)
    return SeatBook(getattr(store, "path"))  # noqa: B009 (a store with a file, checked above)


def keeps_space_books(store: object) -> bool:
    """Whether ``store`` keeps statement answers and consent (a file or a server)."""
    url = getattr(store, "url", None)
    return bool(isinstance(url, str) and url) or getattr(store, "path", None) is not None


def _server(where: Where) -> str:
    url = getattr(where, "url", None)
    if not isinstance(url, str) or not url:  # sqlite_file() is None only for a server
        raise StorageError("The space's storage has neither a file nor a server.")
    return url
