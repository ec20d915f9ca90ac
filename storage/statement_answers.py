"""Each participant's answer to a statement of a shared space: what they did at their own seat.

A statement is a record of the conversation (a tool record whose meta ``kind`` is
``"statement"``); a participant answers one version of it ``agree``, ``partly`` or
``disagree``, with an optional critique. The answer is a row of ``statement_answers``, written
only through :meth:`AnswerBook.answer` by the seat that participant holds: it is their act, not
data. Nothing the model writes, nothing relayed and nothing imported creates one (export does
not write these rows, import does not read them), so "agreed" (every participant agrees with
a version) can only come from the participants themselves.

An answer counts only when given here: its row carries a MAC under this user's key over the
whole answer, its author and whether they shared it (:mod:`storage.authority`); a row from a
copied or crafted store, another client, or edited is no answer (:func:`visible_answers`).

Who may read what is decided here (:meth:`AnswerBook.answers`), never by the caller
(names compare by :func:`storage.audience.viewer_key`, kept beside each name, so a name in any
script compares as Python folds it, not as SQLite's ASCII-only ``lower`` would):

- that a participant has answered a version is everyone's to see;
- the answer itself (agree / partly / disagree) is its author's until every participant has
  answered that version, or its author shares it;
- a critique is its author's alone until its author shares it;
- the facilitator and the mediator (viewer ``None``) read everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, get_args

from storage.audience import viewer_key
from storage.authority import STATEMENT_ANSWER, sign, verifies
from storage.database import BUSY_TIMEOUT_S, Database
from storage.store import StorageError

AnswerValue = Literal["agree", "partly", "disagree"]
ANSWERS: Final[tuple[str, ...]] = get_args(AnswerValue)
STATEMENT_KIND: Final = "statement"
"""The ``kind`` in a statement record's meta."""


class AnswerRefused(StorageError):
    """An answer that cannot be kept: ``str(exc)`` is one sentence saying what to do."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One participant's answer to one statement version, as a viewer may read it.

    ``answer`` and ``critique`` are ``None`` when the viewer may not read them (they know only
    that ``participant`` has answered)."""

    record_id: str
    participant: str
    answer: AnswerValue | None
    critique: str | None
    shared: bool
    answered_at: datetime


def _now() -> str:
    return datetime.now(UTC).isoformat()


ROW_COLUMNS = (
    "record_id, conversation_id, participant, participant_key, answer, critique, shared,"
    " answered_at, mac"
)
"""A ``statement_answers`` row in the order its MAC covers it (the MAC last)."""


def answer_mac(row: Sequence[Any]) -> str:
    """The MAC of an answer row (read as :data:`ROW_COLUMNS`, without its MAC)."""
    return sign(STATEMENT_ANSWER, _covered(row))


def _covered(row: Sequence[Any]) -> tuple[Any, ...]:
    return (*row[:6], int(row[6]), row[7])


def visible_answers(
    rows: Sequence[Sequence[Any]], viewer: str | None, everyone: int
) -> list[Answer]:
    """The answers of ``rows`` (read as :data:`ROW_COLUMNS`) that ``viewer`` may read, as the
    module says, counting only answers given here: a row whose MAC does not verify under this
    user's key (a copied or crafted store, another client's row, an edited one) is no answer,
    is not shown, and does not count toward "every participant has answered"."""
    given = [row for row in rows if verifies(STATEMENT_ANSWER, _covered(row), row[8])]
    counts: dict[str, int] = {}
    for row in given:
        counts[row[0]] = counts.get(row[0], 0) + 1
    key = None if viewer is None else viewer_key(viewer)
    found = []
    for row in given:
        own = key is None or row[3] == key
        shared = bool(row[6])
        found.append(
            Answer(
                record_id=str(row[0]),
                participant=str(row[2]),
                answer=row[4] if own or shared or counts[row[0]] >= max(everyone, 1) else None,
                critique=row[5] if own or shared else None,
                shared=shared,
                answered_at=datetime.fromisoformat(str(row[7])),
            )
        )
    found.sort(key=lambda a: (a.answered_at, a.participant))
    return found


class AnswerBook:
    """Statement answers of the database at ``path`` (its own connection, as a seat has)."""

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self._db = Database(self.path, busy_timeout_s=busy_timeout_s)

    def close(self) -> None:
        self._db.close()

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
        """Keep ``participant``'s answer to the statement version ``record_id`` (a later answer
        of theirs replaces it); raises :class:`AnswerRefused` for an answer that is not one of
        :data:`ANSWERS`, a record that is not a statement of this conversation, or a name that
        is not one of its participants."""
        if answer not in ANSWERS:
            raise AnswerRefused(f"{answer!r} is not an answer; answer agree, partly or disagree.")
        with self._db.write() as conn:
            row = conn.execute(
                "SELECT json_extract(m.meta, '$.kind'), c.meta FROM messages m"
                " JOIN conversations c ON c.id = m.conversation_id"
                " WHERE m.id = ? AND m.conversation_id = ?",
                (record_id, conversation_id),
            ).fetchone()
            if row is None or row[0] != STATEMENT_KIND:
                raise AnswerRefused(
                    "That statement is not in this space any more; answer the one shown."
                )
            names = conn.execute(
                "SELECT value FROM json_each(?, '$.participants')", (row[1],)
            ).fetchall()
            if viewer_key(participant) not in {viewer_key(str(n)) for (n,) in names}:
                raise AnswerRefused(f"{participant!r} is not a participant of this space.")
            fields = (record_id, conversation_id, participant, viewer_key(participant), answer,
                      critique, int(shared), _now())  # fmt: skip
            conn.execute(
                f"INSERT OR REPLACE INTO statement_answers ({ROW_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*fields, answer_mac(fields)),
            )

    def share(self, record_id: str, participant: str) -> bool:
        """``participant`` shows their answer to ``record_id`` (and its critique) to everyone;
        ``False`` when they have not answered it."""
        key = viewer_key(participant)
        with self._db.write() as conn:
            row = conn.execute(
                f"SELECT {ROW_COLUMNS} FROM statement_answers WHERE record_id = ?"
                " AND participant_key = ?",
                (record_id, key),
            ).fetchone()
            if row is None or not visible_answers([row], None, 1):
                return False
            fields = (*row[:6], 1, row[7])
            conn.execute(
                "UPDATE statement_answers SET shared = 1, mac = ? WHERE record_id = ?"
                " AND participant_key = ?",
                (answer_mac(fields), record_id, key),
            )
            return True

    def answers(self, conversation_id: str, viewer: str | None, everyone: int) -> list[Answer]:
        """The space's answers as ``viewer`` may read them (see the module), oldest first.

        ``viewer``: ``None`` (the facilitator and the mediator), ``"shared"`` (what everyone
        reads) or a participant's name; ``everyone``: how many participants the space has
        (an answer shows once that many have answered its version)."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {ROW_COLUMNS} FROM statement_answers WHERE conversation_id = ?",
                (conversation_id,),
            ).fetchall()
        return visible_answers(rows, viewer, everyone)
