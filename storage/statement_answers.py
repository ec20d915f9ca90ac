"""Each participant's answer to a statement of a shared space: what they did at their own seat.

A statement is a record of the conversation (a tool record whose meta ``kind`` is
``"statement"``); a participant answers one version of it ``agree``, ``partly`` or
``disagree``, with an optional critique. The answer is a row of ``statement_answers``, written
only through :meth:`AnswerBook.answer` by the seat that participant holds: it is their act, not
data. Nothing the model writes, nothing relayed and nothing imported creates one (export does
not write these rows, import does not read them), so "agreed" (every participant agrees with
a version) can only come from the participants themselves.

Who may read what is decided in the query (:meth:`AnswerBook.answers`), never by the caller
(names compare by :func:`storage.audience.viewer_key`, kept beside each name, so a name in any
script compares as Python folds it, not as SQLite's ASCII-only ``lower`` would):

- that a participant has answered a version is everyone's to see;
- the answer itself (agree / partly / disagree) is its author's until every participant has
  answered that version, or its author shares it;
- a critique is its author's alone until its author shares it;
- the facilitator and the mediator (viewer ``None``) read everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, get_args

from storage.audience import viewer_key
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


_ALL = "(SELECT count(*) FROM statement_answers b WHERE b.record_id = a.record_id) >= :everyone"
_SELECT = f"""
SELECT a.record_id, a.participant,
       CASE WHEN :viewer IS NULL OR a.participant_key = :viewer OR a.shared OR {_ALL}
            THEN a.answer END,
       CASE WHEN :viewer IS NULL OR a.participant_key = :viewer OR a.shared
            THEN a.critique END,
       a.shared, a.answered_at
FROM statement_answers a WHERE a.conversation_id = :conversation
ORDER BY a.answered_at, a.participant
"""


def _answer(row: Any) -> Answer:
    return Answer(
        record_id=str(row[0]),
        participant=str(row[1]),
        answer=row[2],
        critique=row[3],
        shared=bool(row[4]),
        answered_at=datetime.fromisoformat(str(row[5])),
    )


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
            conn.execute(
                "INSERT OR REPLACE INTO statement_answers (record_id, conversation_id,"
                " participant, participant_key, answer, critique, shared, answered_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (record_id, conversation_id, participant, viewer_key(participant), answer,
                 critique, int(shared), _now()),
            )  # fmt: skip

    def share(self, record_id: str, participant: str) -> bool:
        """``participant`` shows their answer to ``record_id`` (and its critique) to everyone;
        ``False`` when they have not answered it."""
        with self._db.write() as conn:
            cursor = conn.execute(
                "UPDATE statement_answers SET shared = 1 WHERE record_id = ?"
                " AND participant_key = ?",
                (record_id, viewer_key(participant)),
            )
            return cursor.rowcount > 0

    def answers(self, conversation_id: str, viewer: str | None, everyone: int) -> list[Answer]:
        """The space's answers as ``viewer`` may read them (see the module), oldest first.

        ``viewer``: ``None`` (the facilitator and the mediator), ``"shared"`` (what everyone
        reads) or a participant's name; ``everyone``: how many participants the space has
        (an answer shows once that many have answered its version)."""
        with self._db.read() as conn:
            rows = conn.execute(
                _SELECT,
                {
                    "conversation": conversation_id,
                    "viewer": None if viewer is None else viewer_key(viewer),
                    "everyone": max(everyone, 1),
                },
            ).fetchall()
        return [_answer(row) for row in rows]
