"""A shared space's statement answers and consent requests on PostgreSQL: the same books as
:class:`storage.statement_answers.AnswerBook` and :class:`storage.consents.ConsentBook` (whose
modules say who writes and who reads what), on the server, so every host of one space reads
the same answers and consents. The queries are the SQLite ones in PostgreSQL's terms; who may
read an answer or a critique is still decided in the query."""

from __future__ import annotations

from datetime import datetime

from storage.audience import viewer_key
from storage.consents import _COLUMNS as _CONSENT_COLUMNS
from storage.consents import (
    DECISIONS,
    ConsentBook,
    ConsentRefused,
    ConsentRequest,
    _request,
    answered_here,
    signed_answer,
)
from storage.pg_database import PgDatabase
from storage.statement_answers import (
    ANSWERS,
    ROW_COLUMNS,
    STATEMENT_KIND,
    Answer,
    AnswerBook,
    AnswerRefused,
    _now,
    answer_mac,
    visible_answers,
)


class PgAnswerBook(AnswerBook):
    """Statement answers of the database at ``url`` (a pool of its own)."""

    def __init__(self, url: str, *, pool_size: int = 2) -> None:
        self.url = url
        self._pg = PgDatabase(url, pool_size=pool_size)

    def close(self) -> None:
        self._pg.close()

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
        if answer not in ANSWERS:
            raise AnswerRefused(f"{answer!r} is not an answer; answer agree, partly or disagree.")
        with self._pg.write() as conn:
            row = conn.execute(
                "SELECT m.meta::jsonb ->> 'kind', c.meta::jsonb -> 'participants'"
                " FROM messages m JOIN conversations c ON c.id = m.conversation_id"
                " WHERE m.id = %s AND m.conversation_id = %s",
                (record_id, conversation_id),
            ).fetchone()
            if row is None or row[0] != STATEMENT_KIND:
                raise AnswerRefused(
                    "That statement is not in this space any more; answer the one shown."
                )
            names = row[1] if isinstance(row[1], list) else []
            if viewer_key(participant) not in {viewer_key(str(n)) for n in names}:
                raise AnswerRefused(f"{participant!r} is not a participant of this space.")
            fields = (record_id, conversation_id, participant, viewer_key(participant), answer,
                      critique, int(shared), _now())  # fmt: skip
            conn.execute(
                f"INSERT INTO statement_answers ({ROW_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (record_id, participant_key) DO UPDATE SET"
                " participant = excluded.participant, answer = excluded.answer,"
                " critique = excluded.critique, shared = excluded.shared,"
                " answered_at = excluded.answered_at, mac = excluded.mac",
                (*fields, answer_mac(fields)),
            )

    def share(self, record_id: str, participant: str) -> bool:
        key = viewer_key(participant)
        with self._pg.write() as conn:
            row = conn.execute(
                f"SELECT {ROW_COLUMNS} FROM statement_answers WHERE record_id = %s"
                " AND participant_key = %s FOR UPDATE",
                (record_id, key),
            ).fetchone()
            if row is None or not visible_answers([row], None, 1):
                return False
            fields = (*row[:6], 1, row[7])
            conn.execute(
                "UPDATE statement_answers SET shared = 1, mac = %s WHERE record_id = %s"
                " AND participant_key = %s",
                (answer_mac(fields), record_id, key),
            )
            return True

    def answers(self, conversation_id: str, viewer: str | None, everyone: int) -> list[Answer]:
        with self._pg.read() as conn:
            rows = conn.execute(
                f"SELECT {ROW_COLUMNS} FROM statement_answers WHERE conversation_id = %s",
                (conversation_id,),
            ).fetchall()
        return visible_answers(rows, viewer, everyone)


class PgConsentBook(ConsentBook):
    """Consent requests of the database at ``url`` (a pool of its own)."""

    def __init__(self, url: str, *, pool_size: int = 2) -> None:
        self.url = url
        self._pg = PgDatabase(url, pool_size=pool_size)

    def close(self) -> None:
        self._pg.close()

    def ask(
        self, conversation_id: str, call_id: str, participants: list[str], tool: str, text: str
    ) -> None:
        with self._pg.write() as conn:
            for name in participants:
                conn.execute(
                    "INSERT INTO consent_requests (call_id, conversation_id, participant,"
                    " participant_key, tool, text, asked_at) VALUES (%s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (call_id, participant_key) DO NOTHING",
                    (call_id, conversation_id, name, viewer_key(name), tool, text, _now()),
                )

    def answer(self, call_id: str, participant: str, decision: str, edited: str = "") -> None:
        if decision not in DECISIONS:
            raise ConsentRefused(f"{decision!r} is not an answer; allow, edit or refuse.")
        if decision == "edit" and not edited.strip():
            raise ConsentRefused("Write the words you allow in the composer, then choose edit.")
        words = edited.strip() if decision == "edit" else ""
        key = viewer_key(participant)
        with self._pg.write() as conn:
            row = conn.execute(
                f"SELECT {_CONSENT_COLUMNS} FROM consent_requests WHERE call_id = %s"
                " AND participant_key = %s AND withdrawn_at IS NULL FOR UPDATE",
                (call_id, key),
            ).fetchone()
            if row is None or answered_here(row):
                raise ConsentRefused("That question is answered already or is not yours.")
            at = _now()
            conn.execute(
                "UPDATE consent_requests SET decision = %s, edited = %s, answered_at = %s,"
                " mac = %s WHERE call_id = %s AND participant_key = %s",
                (decision, words, at, signed_answer(row, decision, words, at), call_id, key),
            )

    def for_call(self, call_id: str) -> list[ConsentRequest]:
        with self._pg.read() as conn:
            rows = conn.execute(
                f"SELECT {_CONSENT_COLUMNS} FROM consent_requests WHERE call_id = %s"
                " ORDER BY participant",
                (call_id,),
            ).fetchall()
        return [_request(row) for row in rows]

    def waiting(self, conversation_id: str, viewer: str | None) -> list[ConsentRequest]:
        sql = (
            f"SELECT {_CONSENT_COLUMNS} FROM consent_requests"
            " WHERE conversation_id = %(conversation)s AND withdrawn_at IS NULL"
            " AND (%(viewer)s::text IS NULL OR participant_key = %(viewer)s)"
            " ORDER BY asked_at, participant"
        )
        key = None if viewer is None else viewer_key(viewer)
        with self._pg.read() as conn:
            rows = conn.execute(sql, {"conversation": conversation_id, "viewer": key}).fetchall()
        return [r for r in map(_request, rows) if r.waiting]

    def withdraw_before(self, conversation_id: str, before: datetime) -> int:
        with self._pg.write() as conn:
            cursor = conn.execute(
                "UPDATE consent_requests SET withdrawn_at = %s WHERE conversation_id = %s"
                " AND decision IS NULL AND withdrawn_at IS NULL AND asked_at < %s",
                (_now(), conversation_id, before.isoformat()),
            )
            return cursor.rowcount
