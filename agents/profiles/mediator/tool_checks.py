"""What every mediator tool checks before it delivers: who is in the space, the branch the
turn answers, and whether the words would show anyone another participant's private words
(alone or with what the same audience already read from the mediator)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from langchain_core.tools import ToolException
from langgraph.prebuilt import ToolRuntime

from agents.profile import TurnContext
from agents.shared_space import DEFAULT_PARTICIPANTS
from agents.shared_space.actions import (
    POST_TO_SHARED,
    PROPOSE_STATEMENT,
    REPLY_PRIVATELY,
    REVISE_STATEMENT,
)
from agents.shared_space.consent import ConsentDenied, consented_text
from agents.shared_space.events import SHARED
from agents.shared_space.guard import held_for
from agents.shared_space.space import (
    MEDIATOR,
    canonical_participant,
    names_in_words,
    same_name,
    view_for,
)
from agents.shared_space.statements import answer_book
from storage.models import MessageRecord
from storage.seats import SeatBook
from storage.store import NotFoundError, StorageError

logger = logging.getLogger(__name__)

TO_EVERYONE = frozenset({POST_TO_SHARED, PROPOSE_STATEMENT, REVISE_STATEMENT})
"""The tools whose words every participant reads."""


def participants(runtime: ToolRuntime[Any]) -> tuple[str, ...]:
    return tuple(runtime.context.participants) or DEFAULT_PARTICIPANTS


def branch(runtime: ToolRuntime[Any]) -> list[MessageRecord]:
    """The branch this turn answers, root first (empty when its message is not stored)."""
    return turn_branch(runtime.context)


def turn_branch(context: TurnContext) -> list[MessageRecord]:
    """The branch the turn of ``context`` answers, root first (empty when not stored)."""
    try:
        return context.store.path_to_root(context.user_message_id)
    except NotFoundError:
        logger.warning("turn message not stored", extra={"id": context.user_message_id})
        return []


def delivered_before(
    messages: Sequence[Any], this_call: str | None, path: list[MessageRecord], to: str
) -> str:
    """What the mediator already delivered to ``to`` (a participant, or the shared channel):
    on the branch, then earlier in this turn's ``messages`` (calls that were delivered, not
    held, and those made before ``this_call`` beside it)."""
    said = [
        line.content
        for line in view_for(path, None)
        if line.author == MEDIATOR and line.kind == "delivered" and same_name(line.visibility, to)
    ]
    calls = {
        call.get("id"): call
        for message in messages
        for call in getattr(message, "tool_calls", None) or []
    }
    delivered = [
        getattr(message, "tool_call_id", None)
        for message in messages
        if getattr(message, "type", "") == "tool" and getattr(message, "status", "") != "error"
    ]
    siblings = next(
        (
            [call.get("id") for call in message.tool_calls]
            for message in reversed(messages)
            if any(call.get("id") == this_call for call in getattr(message, "tool_calls", []))
        ),
        [],
    )
    # calls made beside this one in the same answer, before it, count as delivered
    earlier_siblings = siblings[: siblings.index(this_call)] if this_call in siblings else []
    for call_id in dict.fromkeys([*delivered, *earlier_siblings]):
        call = calls.get(call_id) or {}
        args = call.get("args") or {}
        to_shared = call.get("name") in TO_EVERYONE and to == SHARED
        if to_shared or (
            call.get("name") == REPLY_PRIVATELY and same_name(args.get("recipient"), to)
        ):
            said.append(str(args.get("content", "") or args.get("text", "")))
    return "\n".join(said)


def held(text: str, runtime: ToolRuntime[Any], to: str) -> list[str]:
    """Whose private words ``text`` would show to ``to`` (see :func:`held_words`), for a
    delivery tool's call."""
    messages = (getattr(runtime, "state", None) or {}).get("messages", [])
    return held_words(text, runtime.context, messages, to, getattr(runtime, "tool_call_id", None))


def held_words(
    text: str,
    context: TurnContext,
    messages: Sequence[Any],
    to: str,
    this_call: str | None = None,
) -> list[str]:
    """Whose private words ``text`` would show to ``to`` (alone or with what ``to`` already
    read from the mediator): their private messages, and the critiques they wrote at their
    seats and have not shared. Every way the mediator's words reach someone asks this: the
    delivery tools and a closing reply that goes back to whoever spoke."""
    path = turn_branch(context)
    before = delivered_before(messages, this_call, path, to)
    private = [*path, *critiques_as_records(context)]
    return held_for(text, private, before=before, reader=None if to == SHARED else to)


def critiques_as_records(context: TurnContext) -> list[MessageRecord]:
    """Each unshared critique of the space as a private message of its author (what the guard
    compares a post with)."""
    book = answer_book(context.store)
    if book is None:
        return []
    try:
        people = context.participants or DEFAULT_PARTICIPANTS
        answers = book.answers(context.conversation_id, None, len(people))
    except StorageError as exc:
        logger.warning("critiques not read", extra={"error": str(exc)})
        return []
    finally:
        book.close()
    return [
        MessageRecord(
            id=f"critique:{a.record_id}:{a.participant}",
            conversation_id=context.conversation_id,
            role="user",
            content=a.critique or "",
            parent_id=None,
            depth=0,
            version=1,
            created_at=a.answered_at,
            meta={"sender": a.participant, "visibility": a.participant},
        )
        for a in answers
        if a.critique and not a.shared
    ]


def checked_content(content: str) -> str:
    text = content.strip()
    if not text:
        raise ToolException("The message is empty; write what you want to say.")
    return text


def neutral_label(label: str, runtime: ToolRuntime[Any], what: str, tool_name: str) -> None:
    """Check a label everyone reads beside a delivery (a statement's topic, the agenda's
    topics, all of them together): like a post's words it may not repeat anyone's private
    words, and since a label is the mediator's own few words nobody is asked to allow it:
    raises :class:`ToolException` telling the mediator to name it neutrally."""
    repeated = held(label, runtime, SHARED)
    if repeated:
        raise ToolException(
            f"{what} held: it repeated {names_in_words(repeated)}'s private words, so nobody "
            f"was shown it. Name it in a few neutral words of your own, then call {tool_name} "
            "again."
        )


def shared_words(
    text: str, runtime: ToolRuntime[Any], tool_name: str, draws_on: Sequence[str]
) -> str:
    """The words a post for everyone may carry: ``text`` when it draws on nobody's private
    words, else what the participants it draws on allowed (:mod:`agents.shared_space.consent`:
    the turn pauses until they answer at their seats). Raises :class:`ToolException` with
    what the mediator must do when nothing may be posted."""
    declared = named_participants(draws_on, runtime, "draws_on")
    repeated = held(text, runtime, SHARED)
    context: TurnContext = runtime.context
    seated = seated_participants(context)
    if any(not any(same_name(w, s) for s in seated) for w in repeated):
        raise ToolException(
            f"{HELD_LABELS.get(tool_name, 'Post')} held: it repeated "
            f"{names_in_words(repeated)}'s private words, so nobody was shown it. Rephrase it "
            "in your own neutral words, without quoting what anyone told you privately, then "
            f"call {tool_name} again."
        )
    asked = [*declared, *(w for w in repeated if w not in declared)]
    if not asked:
        return text
    call_id = str(getattr(runtime, "tool_call_id", "") or "")
    try:
        allowed = consented_text(
            context.store,
            context.conversation_id,
            call_id,
            tool_name,
            text,
            asked,
            turn_id=context.user_message_id,
            ask_in_person=context.consent_in_person,
        )
    except ConsentDenied as denied:
        raise ToolException(str(denied)) from None
    others = [w for w in held(allowed, runtime, SHARED) if w not in asked]
    if others:
        raise ToolException(
            f"Not posted: the allowed words repeat {names_in_words(others)}'s private words. "
            "Rephrase them without quoting anyone else, then call the tool again."
        )
    return allowed


def named_participants(names: Sequence[str], runtime: ToolRuntime[Any], argument: str) -> list[str]:
    """``names`` as the space spells them, once each; raises :class:`ToolException` naming
    the argument for a name that is not a participant."""
    people = participants(runtime)
    found: list[str] = []
    for raw in names:
        name = canonical_participant(str(raw), people)
        if name is None:
            raise ToolException(
                f"{argument} names {raw!r}, who is not a participant; the participants are "
                f"{names_in_words(people)}."
            )
        if name not in found:
            found.append(name)
    return found


def seated_participants(context: TurnContext) -> list[str]:
    """Who has a seat in this space (who can be asked at their own screen)."""
    path = getattr(context.store, "path", None)
    if path is None:
        return []
    book = SeatBook(path)
    try:
        return [seat.participant for seat in book.seats(context.conversation_id)]
    finally:
        book.close()


HELD_LABELS = {POST_TO_SHARED: "Shared post", PROPOSE_STATEMENT: "Statement",
               REVISE_STATEMENT: "Statement"}  # fmt: skip
