"""The user's answers to a paused turn's consent questions, asked in person and kept in the
consent book (:mod:`storage.consents`), where the mediator's tool reads them back.

Only the questions of the one tool call the turn is paused on are asked, and only those
waiting for a participant with no seat in the space: a seated participant answers at their
own seat, never here. Each answer is written for exactly the question it was asked for (that
call, that participant); whatever the client sent is read through
:func:`~weaver_tui.core.acp_agent.consent_elicitation.answer_of`, so anything but a form
accepted with a valid choice is a refusal.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from agents.shared_space.space import same_name
from storage.consents import ConsentRefused, ConsentRequest
from storage.space_books import consent_book_for, seat_book_for
from storage.store import ConversationStore
from weaver_tui.core.acp_agent.consent_elicitation import answer_of

logger = logging.getLogger(__name__)

PROMPT_CANCELLED: Final = object()
"""What a form's asker returns when the prompt was cancelled before the client answered."""

Form = Callable[[ConsentRequest], Awaitable[Any]]
"""Shows one consent question; returns the client's response (whatever it was), or
:data:`PROMPT_CANCELLED`."""


@dataclass(frozen=True, slots=True)
class Answered:
    """The questions asked here are answered: the sentences of the refusals made of answers
    that could not be used, and whether a question still waits (for a seated participant)."""

    refusals: tuple[str, ...]
    still_waiting: bool


def _requests(store: ConversationStore, call_id: str) -> list[ConsentRequest]:
    book = consent_book_for(store)
    try:
        return book.for_call(call_id)
    finally:
        book.close()


def _seated(store: ConversationStore, conversation_id: str) -> list[str]:
    book = seat_book_for(store)
    try:
        return [seat.participant for seat in book.seats(conversation_id)]
    finally:
        book.close()


def _keep(store: ConversationStore, request: ConsentRequest, decision: str, words: str) -> None:
    book = consent_book_for(store)
    try:
        book.answer(request.call_id, request.participant, decision, words)
    except ConsentRefused as exc:  # withdrawn or answered meanwhile: that answer stands
        logger.info("consent answer not kept", extra={"call_id": request.call_id, "why": str(exc)})
    finally:
        book.close()


async def ask_in_person(store: ConversationStore, call_id: str, form: Form) -> Answered | None:
    """Ask the questions of ``call_id`` that wait for a participant with no seat, one form
    each, and keep the answers; ``None`` when the prompt was cancelled (the rest stay
    unanswered)."""
    requests = _requests(store, call_id)
    if not requests:
        return Answered((), still_waiting=False)
    seated = _seated(store, requests[0].conversation_id)
    refusals: list[str] = []
    for request in requests:
        if not request.waiting or any(same_name(request.participant, s) for s in seated):
            continue
        response = await form(request)
        if response is PROMPT_CANCELLED:
            return None
        answer = answer_of(response)
        _keep(store, request, answer.decision, answer.words)
        if answer.why:
            refusals.append(answer.why)
        logger.info(
            "consent answered over ACP",
            extra={"call_id": call_id, "decision": answer.decision},
        )
    return Answered(tuple(refusals), any(r.waiting for r in _requests(store, call_id)))
