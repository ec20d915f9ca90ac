"""Shared statements: what the mediator proposes the participants agree on, and where each
person stands on it.

A statement is proposed (``propose_statement``) and revised (``revise_statement``) by the
mediator; each version is a tool record of the branch whose meta says ``kind: "statement"``,
its key (``S1``, ``S2``: one per statement of the branch), its topic, its version number and
the record of the version it revises. A revision is a later record of the same branch, never
a sibling, so the answers to the versions before it stay on the path.

Where people stand is not in the records: each participant's answer is a row that only their
own seat writes (:mod:`storage.statement_answers`). :func:`statement_board` joins the two for
one viewer, and a version is **agreed** exactly when every participant of the space has
answered it ``agree`` (:func:`agreed_mark`): nothing the model writes, relays or imports can
make one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from agents.shared_space.actions import PROPOSE_STATEMENT, REVISE_STATEMENT
from agents.shared_space.marks import defanged, private_mark
from agents.shared_space.space import participants_of, same_name
from storage.models import MessageRecord
from storage.space_books import answer_book_for, keeps_space_books
from storage.statement_answers import STATEMENT_KIND, Answer, AnswerBook
from storage.store import ConversationStore, NotFoundError, StorageError

logger = logging.getLogger(__name__)

__all__ = ["PROPOSE_STATEMENT", "REVISE_STATEMENT"]

STATEMENT_TOOLS: Final = frozenset({PROPOSE_STATEMENT, REVISE_STATEMENT})


@dataclass(frozen=True, slots=True)
class StatementVersion:
    """One version of a statement, as its record keeps it."""

    record_id: str
    key: str
    topic: str
    text: str
    number: int
    revises: str | None
    created_at: datetime
    reflects: tuple[str, ...] = ()
    """Whose points it reflects, as the mediator declared them (``reflects`` and ``draws_on``)."""


@dataclass(frozen=True, slots=True)
class AgreedMark:
    """A version every participant agreed with, and when the last of them did."""

    number: int
    record_id: str
    at: datetime


@dataclass(slots=True)
class Statement:
    """A statement's versions (oldest first) and the answers to each that a viewer may read."""

    key: str
    topic: str
    versions: list[StatementVersion] = field(default_factory=list)
    answers: dict[str, list[Answer]] = field(default_factory=dict)
    """Version record id -> its answers, oldest first."""
    agreed: AgreedMark | None = None

    @property
    def latest(self) -> StatementVersion:
        return self.versions[-1]

    def answered(self, version: StatementVersion | None = None) -> list[str]:
        """Who has answered ``version`` (the latest by default)."""
        chosen = version or self.latest
        return [a.participant for a in self.answers.get(chosen.record_id, [])]


def is_statement(record: MessageRecord) -> bool:
    """Whether ``record`` is a statement version (a successful statement tool's record)."""
    return (
        record.role == "tool"
        and record.meta.get("kind") == STATEMENT_KIND
        and record.meta.get("name") in STATEMENT_TOOLS
        and not record.meta.get("error")
    )


def version_of(record: MessageRecord) -> StatementVersion:
    meta = record.meta
    return StatementVersion(
        record_id=record.id,
        key=str(meta.get("statement") or "S?"),
        topic=str(meta.get("topic") or ""),
        text=str(meta.get("delivered_content") or ""),
        number=int(meta.get("statement_version") or 1),
        revises=meta.get("revises"),
        created_at=record.created_at,
        reflects=tuple(str(n) for n in meta.get("reflects") or ()),
    )


def statements_on(path: Iterable[MessageRecord]) -> list[Statement]:
    """The statements of a branch (root first), each with its versions in order."""
    found: dict[str, Statement] = {}
    for record in path:
        if not is_statement(record):
            continue
        version = version_of(record)
        statement = found.setdefault(version.key, Statement(version.key, version.topic))
        statement.versions.append(version)
    for statement in found.values():
        statement.versions.sort(key=lambda v: v.number)
    return sorted(found.values(), key=_key_order)


def _key_order(statement: Statement) -> tuple[int, str]:
    """``S2`` before ``S10`` (parallel calls are recorded in the order they finish)."""
    digits = statement.key[1:]
    return (int(digits) if digits.isdigit() else 1 << 30, statement.key)


def agreed_mark(
    statement: Statement, participants: Sequence[str], answers: Sequence[Answer]
) -> AgreedMark | None:
    """The newest version of ``statement`` that every one of ``participants`` answered
    ``agree`` (in ``answers``, read by a viewer who may read them all), else ``None``."""
    if not participants:
        return None
    for version in reversed(statement.versions):
        mine = [a for a in answers if a.record_id == version.record_id]
        agreeing = [a for a in mine if a.answer == "agree"]
        if all(any(same_name(a.participant, p) for a in agreeing) for p in participants):
            return AgreedMark(version.number, version.record_id, max(a.answered_at for a in mine))
    return None


def answer_book(store: ConversationStore) -> AnswerBook | None:
    """The answers kept beside ``store``'s records (in its SQLite file or on its server), else
    ``None``."""
    return answer_book_for(store) if keeps_space_books(store) else None


def statement_board(
    store: ConversationStore, conversation_id: str, viewer: str | None, leaf_id: str | None = None
) -> list[Statement]:
    """The statements on the active branch (or the one ending at ``leaf_id``) as ``viewer``
    may read them: the records through the store's viewer filter, the answers through the
    answer book's. ``agreed`` is decided on every answer (whoever views), since whether all
    agreed needs every participant's answer, and once all have answered a version, every
    viewer may read the answers to it."""
    conversation = store.get_conversation(conversation_id)
    leaf = leaf_id or conversation.meta.get("active_leaf")
    if not leaf:
        return []
    try:
        path = store.path_to_root(str(leaf), viewer)
    except NotFoundError:
        return []
    statements = statements_on(path)
    if not statements:
        return statements
    people = participants_of(conversation)
    book = answer_book(store)
    if book is None:
        logger.warning("statement answers need a store on a SQLite file")
        return statements
    try:
        seen = book.answers(conversation_id, viewer, len(people))
    finally:
        book.close()
    for statement in statements:
        ids = {v.record_id for v in statement.versions}
        for answer in seen:
            if answer.record_id in ids:
                statement.answers.setdefault(answer.record_id, []).append(answer)
        statement.agreed = agreed_mark(statement, people, [a for a in seen if a.record_id in ids])
    return statements


def current_open(statements: Sequence[Statement]) -> Statement | None:
    """The statement to answer now: the newest (by its latest version) not yet agreed."""
    open_ones = [s for s in statements if s.agreed is None]
    return max(open_ones, key=lambda s: s.latest.created_at, default=None)


def answer_words(answer: Answer) -> str:
    return answer.answer or "answered"


def mediator_notes(statements: Sequence[Statement], participants: Sequence[str]) -> str:
    """The statements and every answer as the mediator reads them (its system prompt): each
    answer and critique marked private to its author unless they shared it."""
    if not statements:
        return ""
    lines = ["", "## Statements (each participant answers at their own seat)"]
    for statement in statements:
        latest = statement.latest
        agreed = f"; AGREED at version {statement.agreed.number}" if statement.agreed else ""
        lines.append(
            f"- {statement.key} ({statement.topic}), version {latest.number}{agreed}: {latest.text}"
        )
        answers = statement.answers.get(latest.record_id, [])
        for answer in answers:
            mark = "[shared by its author]" if answer.shared else private_mark(answer.participant)
            critique = f'; critique: "{defanged(answer.critique)}"' if answer.critique else ""
            lines.append(f"  - {answer.participant}: {answer.answer}{critique} {mark}")
        missing = [
            p for p in participants if not any(same_name(p, a) for a in statement.answered())
        ]
        if missing:
            lines.append(f"  - not answered yet: {', '.join(missing)}")
    return "\n".join(lines) + "\n"


def next_key(path: Iterable[MessageRecord], this_turn: int = 0) -> str:
    """The key of a new statement: one more than the statements of the branch and those
    proposed earlier in this turn (``this_turn``)."""
    return f"S{len(statements_on(path)) + this_turn + 1}"


def statement_meta(
    tool: str,
    key: str,
    topic: str,
    text: str,
    number: int,
    revises: str | None,
    reflects: Sequence[str] = (),
) -> dict[str, Any]:
    """The meta a statement version's record keeps (shared with everyone)."""
    return {
        "visibility": "shared",
        "recipient": "shared",
        "delivered_by": tool,
        "delivered_content": text,
        "kind": STATEMENT_KIND,
        "statement": key,
        "topic": topic,
        "statement_version": number,
        "revises": revises,
        "reflects": list(reflects),
    }


def read_board(
    store: ConversationStore, conversation_id: str, viewer: str | None
) -> list[Statement]:
    """:func:`statement_board`, or nothing (logged) when the store cannot be read now."""
    try:
        return statement_board(store, conversation_id, viewer)
    except StorageError as exc:
        logger.warning("statements not read", extra={"error": str(exc)})
        return []
