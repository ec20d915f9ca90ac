"""Consent before private words feed the shared space.

A post for everyone (``post_to_shared``, a statement) that draws on what a participant told
the mediator privately is posted only once that participant, at their own seat, allows it.
Who must be asked is the union of two signals: the participants the model itself names in the
call's ``draws_on`` argument, and those whose private words the verbatim guard finds in it
(:mod:`agents.shared_space.guard`). The tool then pauses the turn (``interrupt``, a checkpoint:
a question left open survives a restart) until every one of them has answered; the answers
are read back from the store's consent book (:class:`storage.consents.ConsentBook`), which
only a participant's own seat writes, never from the value the turn is resumed with.

- every one allows: the words are posted as the mediator wrote them;
- the one asked edits: their words are posted instead (checked again for anyone else's
  private words); when several were asked, an edit is posted by no one's say alone: nothing
  is posted and the mediator is told to propose the new words to all of them;
- anyone refuses: nothing is posted, and the mediator reads who refused as the tool's result;
- someone to be asked has no seat in this space: nothing is posted, and the mediator is told
  to ask them first; unless the front end running the turn asks its own user in person
  (``ask_in_person``: an editor that shows forms over ACP, where the one person at the
  conversation speaks for each participant, as in the host app). Then the question waits in
  the consent book like any other, and that front end writes its user's answer there, for
  this call only, before it resumes the turn.

The host's runner (:class:`agents.runtime.seat_queue.SeatQueueRunner`) resumes the paused
turn once every answer is in, and takes no other message of the space while it waits. A
message sent after the pause some other way (the host's own chat) abandons it, as it abandons
any pause; the runner then withdraws its requests (:func:`withdraw_abandoned`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from langgraph.types import interrupt

from agents.graph.status import emit_status
from agents.pending_interrupt import pending_at_leaf
from agents.shared_space.space import names_in_words, same_name
from storage.consents import ConsentRequest
from storage.space_books import consent_book_for, keeps_space_books, seat_book_for
from storage.store import ConversationStore

logger = logging.getLogger(__name__)

INTERRUPT_KIND: Final = "consent"
STATUS_NODE: Final = "consent"


class ConsentDenied(Exception):
    """Nothing may be posted: ``str(exc)`` is what the mediator reads."""


@dataclass(frozen=True, slots=True)
class PendingConsent:
    """A turn paused for consent: the record it is paused on and the question it asks (the
    key its requests are kept under: :func:`question_key`)."""

    record_id: str
    call_id: str


def question_key(turn_id: str, call_id: str, text: str) -> str:
    """The key one consent question is asked and answered under: the turn (its user message),
    the tool call and the words asked about. A provider's call id alone is not unique (some
    number every reply's calls from 0), so an answer is kept for exactly the question it was
    given to, never another turn's, another conversation's or other words'. Stable for one
    question: the paused tool, run again on resume, finds the same key."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return f"{turn_id}:{call_id}:{digest}"


def consent_of(values: Any) -> str | None:
    """The call id of a consent pause's value (or of the first in a list), else ``None``."""
    for value in values if isinstance(values, list) else [values]:
        if isinstance(value, dict) and value.get("kind") == INTERRUPT_KIND:
            return str(value.get("call_id"))
    return None


def pending_consent(store: ConversationStore, conversation_id: str) -> PendingConsent | None:
    """The consent the space's active branch is paused on, else ``None``."""
    found = pending_at_leaf(store, conversation_id, None, consent_of)
    return PendingConsent(*found) if found is not None else None


def withdraw_abandoned(store: ConversationStore, conversation_id: str) -> int:
    """With no turn of the space paused for consent, withdraw the requests asked before its
    newest user message (that message abandoned their pause); returns how many."""
    if not keeps_space_books(store) or pending_consent(store, conversation_id) is not None:
        return 0
    leaf = store.active_leaf(conversation_id)
    users = [r for r in store.path_to_root(leaf.id) if r.role == "user"] if leaf else []
    if not users:
        return 0
    book = consent_book_for(store)
    try:
        return book.withdraw_before(conversation_id, users[-1].created_at)
    finally:
        book.close()


def all_answered(store: ConversationStore, call_id: str) -> bool:
    """Whether every participant asked about ``call_id`` has answered (never, for a store
    that keeps no consent: see :mod:`storage.space_books`)."""
    if not keeps_space_books(store):
        return False
    book = consent_book_for(store)
    try:
        requests = book.for_call(call_id)
    finally:
        book.close()
    return bool(requests) and not any(r.waiting for r in requests)


def _seated(store: ConversationStore, conversation_id: str) -> list[str]:
    book = seat_book_for(store)
    try:
        return [seat.participant for seat in book.seats(conversation_id)]
    finally:
        book.close()


def consented_text(
    store: ConversationStore,
    conversation_id: str,
    call_id: str,
    tool: str,
    text: str,
    asked: Sequence[str],
    *,
    turn_id: str,
    ask_in_person: bool = False,
) -> str:
    """The words that may be posted once everyone in ``asked`` has answered (pausing the turn
    until then); raises :class:`ConsentDenied` when nothing may be posted. The question is
    kept under :func:`question_key` of ``turn_id`` (the turn's user message), ``call_id`` and
    ``text``. With ``ask_in_person`` a participant with no seat is asked too (by the turn's
    own front end)."""
    if not keeps_space_books(store):
        raise ConsentDenied(
            f"Not posted: it draws on what {names_in_words(asked)} told you privately, and "
            "this space cannot ask them. Ask them in a private reply first."
        )
    seated = _seated(store, conversation_id)
    unseated = [name for name in asked if not any(same_name(name, s) for s in seated)]
    if unseated and not ask_in_person:
        who = names_in_words(unseated)
        raise ConsentDenied(
            f"Not posted: it draws on what {who} told you privately, and {who} has no seat "
            f"here to allow it. Ask {who} in a private reply whether you may share it, in "
            "your own words, or leave it out."
        )
    call_id = question_key(turn_id, call_id, text)
    book = consent_book_for(store)
    try:
        book.ask(conversation_id, call_id, list(asked), tool, text)
        requests = book.for_call(call_id)
    finally:
        book.close()
    if any(r.waiting for r in requests):
        who = names_in_words([r.participant for r in requests if r.waiting])
        emit_status(STATUS_NODE, f"Waiting for {who} to allow the post at their seat")
        interrupt({"kind": INTERRUPT_KIND, "call_id": call_id, "participants": list(asked)})
        book = consent_book_for(store)
        try:
            requests = book.for_call(call_id)
        finally:
            book.close()
        if any(r.waiting for r in requests):  # resumed early: ask again
            interrupt({"kind": INTERRUPT_KIND, "call_id": call_id, "participants": list(asked)})
    return _decided(requests, text)


def _decided(requests: Sequence[ConsentRequest], text: str) -> str:
    refused = [r.participant for r in requests if r.decision == "refuse"]
    if refused:
        emit_status(STATUS_NODE, f"{names_in_words(refused)} refused the post", "error")
        raise ConsentDenied(
            f"{names_in_words(refused)} refused: nothing was posted. Do not share what they "
            "told you privately; ask them what they would like to say themselves."
        )
    edits = [r for r in requests if r.decision == "edit"]
    if edits and len(requests) > 1:
        others = [r.participant for r in requests if r.decision != "edit"]
        raise ConsentDenied(
            f"{names_in_words([r.participant for r in edits])} rewrote the post, and "
            f"{names_in_words(others) if others else 'the others'} answered other words: "
            "nothing was posted. Propose the rewritten words again so that everyone asked "
            "can answer them."
        )
    emit_status(STATUS_NODE, "Allowed", "done")
    return edits[0].edited if edits else text
