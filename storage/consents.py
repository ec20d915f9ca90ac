"""Consent asked of a participant before the mediator shares what draws on their private words.

When the mediator's post or statement uses what a participant told it privately, the post
waits: one row of ``consent_requests`` per participant asked (keyed by the tool call, so
asking again after a pause adds nothing), holding the words the mediator would post. Only
that participant's own seat answers it (:meth:`ConsentBook.answer`): ``allow``, ``edit``
(with the words they would have posted instead) or ``refuse``. The answer is their act, not
data: export does not write these rows and import does not read them.

A request whose turn was abandoned (someone spoke after the pause, which ends it) is
withdrawn by the host (:meth:`ConsentBook.withdraw_before`): no seat shows it any more and it
can no longer be answered.

An answer is authority only when this user's process recorded it here: each answered row
carries a MAC (:mod:`storage.authority`, kind :data:`~storage.authority.CONSENT_ANSWER`) over
the call, conversation, participant, tool, words, decision, edited words and time. An answer
without one that verifies (a store file copied or crafted, a row written by another client or
edited, an answer from before the MAC) is read as no answer: the question is still open, shown
at the participant's seat and answerable there again, and nothing is posted on its say.

Who may read a request is decided in the query: its participant, and the facilitator
(viewer ``None``); never another participant, since the words may draw on private ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, get_args

from storage.audience import viewer_key
from storage.authority import CONSENT_ANSWER, sign, verifies
from storage.database import BUSY_TIMEOUT_S, Database
from storage.store import StorageError

Decision = Literal["allow", "edit", "refuse"]
DECISIONS: Final[tuple[str, ...]] = get_args(Decision)


class ConsentRefused(StorageError):
    """An answer that cannot be kept: ``str(exc)`` is one sentence saying what to do."""


@dataclass(frozen=True, slots=True)
class ConsentRequest:
    """One participant asked about one post: the words, and their answer once given."""

    call_id: str
    conversation_id: str
    participant: str
    tool: str
    text: str
    decision: Decision | None
    edited: str
    asked_at: datetime

    @property
    def waiting(self) -> bool:
        return self.decision is None


_COLUMNS = (
    "call_id, conversation_id, participant, tool, text, decision, edited, asked_at,"
    " participant_key, answered_at, mac"
)


def answer_fields(row: Any) -> tuple[str | None, ...]:
    """What an answer's MAC covers, from a row read as :data:`_COLUMNS`."""
    call_id, conversation, participant, tool, text, decision, edited = row[:7]
    return (call_id, conversation, participant, row[8], tool, text, decision, edited, row[9])


def answered_here(row: Any) -> bool:
    """The row holds an answer this user's process recorded here (its MAC verifies)."""
    return row[5] is not None and verifies(CONSENT_ANSWER, answer_fields(row), row[10])


def _request(row: Any) -> ConsentRequest:
    decided = answered_here(row)
    return ConsentRequest(
        call_id=str(row[0]),
        conversation_id=str(row[1]),
        participant=str(row[2]),
        tool=str(row[3]),
        text=str(row[4]),
        decision=row[5] if decided else None,
        edited=str(row[6] or "") if decided else "",
        asked_at=datetime.fromisoformat(str(row[7])),
    )


def signed_answer(row: Any, decision: str, edited: str, answered_at: str) -> str:
    """The MAC of ``row``'s request answered with ``decision`` and ``edited`` now."""
    answered = (*row[:5], decision, edited, row[7], row[8], answered_at)
    return sign(CONSENT_ANSWER, answer_fields(answered))


def _now() -> str:
    return datetime.now(UTC).isoformat()


class ConsentBook:
    """Consent requests of the database at ``path`` (its own connection, as a seat has)."""

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self._db = Database(self.path, busy_timeout_s=busy_timeout_s)

    def close(self) -> None:
        self._db.close()

    def ask(
        self, conversation_id: str, call_id: str, participants: list[str], tool: str, text: str
    ) -> None:
        """Ask each of ``participants`` about ``text`` for the tool call ``call_id`` (a request
        already made for that call is kept as it is, answered or not)."""
        with self._db.write() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO consent_requests (call_id, conversation_id, participant,"
                " participant_key, tool, text, asked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (call_id, conversation_id, name, viewer_key(name), tool, text, _now())
                    for name in participants
                ],
            )

    def answer(self, call_id: str, participant: str, decision: str, edited: str = "") -> None:
        """``participant``'s answer to their request of ``call_id``; raises
        :class:`ConsentRefused` for an unknown decision, an edit without words, or a request
        that is not theirs or is already answered."""
        if decision not in DECISIONS:
            raise ConsentRefused(f"{decision!r} is not an answer; allow, edit or refuse.")
        if decision == "edit" and not edited.strip():
            raise ConsentRefused("Write the words you allow in the composer, then choose edit.")
        words = edited.strip() if decision == "edit" else ""
        key = viewer_key(participant)
        with self._db.write() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM consent_requests WHERE call_id = ?"
                " AND participant_key = ? AND withdrawn_at IS NULL",
                (call_id, key),
            ).fetchone()
            if row is None or answered_here(row):
                raise ConsentRefused("That question is answered already or is not yours.")
            at = _now()
            conn.execute(
                "UPDATE consent_requests SET decision = ?, edited = ?, answered_at = ?, mac = ?"
                " WHERE call_id = ? AND participant_key = ?",
                (decision, words, at, signed_answer(row, decision, words, at), call_id, key),
            )

    def for_call(self, call_id: str) -> list[ConsentRequest]:
        """Every request of one tool call (what the mediator's tool reads back)."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM consent_requests WHERE call_id = ? ORDER BY participant",
                (call_id,),
            ).fetchall()
        return [_request(row) for row in rows]

    def waiting(self, conversation_id: str, viewer: str | None) -> list[ConsentRequest]:
        """The requests not yet answered, oldest first: ``viewer``'s own (a participant's
        name), or all of them (``None``: the facilitator)."""
        sql = (
            f"SELECT {_COLUMNS} FROM consent_requests WHERE conversation_id = :conversation"
            " AND withdrawn_at IS NULL"
            " AND (:viewer IS NULL OR participant_key = :viewer)"
            " ORDER BY asked_at, participant"
        )
        key = None if viewer is None else viewer_key(viewer)
        with self._db.read() as conn:
            rows = conn.execute(sql, {"conversation": conversation_id, "viewer": key}).fetchall()
        return [r for r in map(_request, rows) if r.waiting]

    def withdraw_before(self, conversation_id: str, before: datetime) -> int:
        """Withdraw the unanswered requests of the space asked before ``before`` (their turn
        was abandoned: someone spoke since); returns how many."""
        with self._db.write() as conn:
            cursor = conn.execute(
                "UPDATE consent_requests SET withdrawn_at = ? WHERE conversation_id = ?"
                " AND decision IS NULL AND withdrawn_at IS NULL AND asked_at < ?",
                (_now(), conversation_id, before.isoformat()),
            )
            return cursor.rowcount
