"""The mediator's offline demo: the speaker is answered privately, and what was said to
everyone is summarised to everyone.

The agent node's step reads the turn's user record (its words, who said it, and whether it was
said in the shared space), never the prompt. The private reply echoes the message with its
lines kept and says plainly that a demo model does not mediate; a message said in the shared
space is also posted to everyone, quoted as said. Private words are never posted.

It also plays a statement round on the structured state of the branch
(:func:`agents.shared_space.statements.statement_board` and the participants' answers):

- once every participant has spoken in the shared space and no statement is open, a shared
  message becomes the candidate statement (``propose_statement``, its topic the speaker's
  proposal), since it is words everyone has read;
- once every participant has answered a statement's newest version and not all agree, it
  posts the next version (``revise_statement``), saying plainly that a demo model cannot
  rewrite a statement from critiques, so everyone answers it again.
"""

from __future__ import annotations

from agents.offline import OfflineSteps, OfflineTurn, PlannedCall, Reply, cannot
from agents.shared_space.actions import (
    POST_TO_SHARED,
    PROPOSE_STATEMENT,
    REPLY_PRIVATELY,
    REVISE_STATEMENT,
)
from agents.shared_space.events import SHARED
from agents.shared_space.marks import unmarked
from agents.shared_space.space import names_in_words, same_name
from agents.shared_space.statements import Statement, statement_board
from agents.speaker import speaker_of


def _said(turn: OfflineTurn) -> tuple[str, str | None, bool]:
    """(words, speaker, said in the shared space) of the message this turn answers."""
    context = turn.context
    last = turn.last_user
    name = last.name if last is not None else None
    if context is None:
        return unmarked(turn.user_text), speaker_of(name), False
    people = tuple(getattr(context, "participants", ()) or ())
    try:
        record = context.store.get_message(context.user_message_id)
    except Exception:  # noqa: BLE001 (an unreadable record: the demo uses the turn's text)
        return unmarked(turn.user_text), context.sender or speaker_of(name, people), False
    shared = record.meta.get("visibility") == SHARED
    return record.content.strip(), context.sender or speaker_of(name, people), shared


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())


def agent(turn: OfflineTurn) -> Reply:
    """Deliver the private reply (and the shared summary); after delivery, say what was done."""
    results = turn.results
    if results:
        done = [
            f"- {r.name}: {r.content.strip()}" for r in results if r.name in DELIVERIES
        ]  # fmt: skip
        return Reply(text="Delivered:\n" + "\n".join(done) if done else cannot())
    words, speaker, shared = _said(turn)
    if not words or REPLY_PRIVATELY not in turn.tools:
        return Reply(text=cannot("mediate this conversation"))
    who = speaker or "you"
    private = f"{who}, I received your message:\n\n{_quoted(words)}\n\n" + cannot(
        "mediate", "I pass on what is said to everyone, and nothing said privately."
    )
    calls = [PlannedCall(REPLY_PRIVATELY, {"recipient": who, "content": private})]
    if shared and POST_TO_SHARED in turn.tools:
        calls.append(PlannedCall(POST_TO_SHARED, {"content": f"{who} said to everyone:\n\n{_quoted(words)}"}))  # fmt: skip
    calls.extend(_statement_step(turn, words, who, shared))
    return Reply(calls=tuple(calls))


DELIVERIES = (REPLY_PRIVATELY, POST_TO_SHARED, PROPOSE_STATEMENT, REVISE_STATEMENT)
PROPOSAL_WORDS = 6
"""How many of the speaker's words name the topic of a statement made from their message."""


def _board(turn: OfflineTurn) -> tuple[list[Statement], tuple[str, ...], bool]:
    """(statements on the branch, participants, whether each has spoken in the shared space)."""
    context = turn.context
    people = tuple(getattr(context, "participants", ()) or ())
    try:
        board = statement_board(
            context.store, context.conversation_id, None, context.user_message_id
        )
        path = context.store.path_to_root(context.user_message_id, "shared")
    except Exception:  # noqa: BLE001 (an unreadable space: the demo makes no statement)
        return [], people, False
    spoke = {r.sender for r in path if r.role == "user" and r.sender}
    return board, people, bool(people) and all(any(same_name(p, s) for s in spoke) for p in people)


def _statement_step(turn: OfflineTurn, words: str, who: str, shared: bool) -> list[PlannedCall]:
    if turn.context is None or PROPOSE_STATEMENT not in turn.tools:
        return []
    board, people, all_spoke = _board(turn)
    for statement in board:
        answers = statement.answers.get(statement.latest.record_id, [])
        if statement.agreed is None and len(answers) >= len(people) > 0:
            return [_revision(statement, [a.participant for a in answers if a.answer != "agree"])]
    if shared and all_spoke and all(s.agreed is not None for s in board):
        topic = " ".join(words.split()[:PROPOSAL_WORDS])
        return [PlannedCall(PROPOSE_STATEMENT, {"topic": f"{who}: {topic}", "text": words})]
    return []


def _revision(statement: Statement, not_agreeing: list[str]) -> PlannedCall:
    note = (
        f"(Version {statement.latest.number + 1}, after {names_in_words(not_agreeing)} did not "
        "fully agree: the offline demo model cannot rewrite a statement from critiques, so "
        "please answer it again, or connect a model that can.)"
    )
    text = f"{statement.latest.text}\n\n{note}"
    return PlannedCall(REVISE_STATEMENT, {"statement": statement.key, "text": text})


STEPS: OfflineSteps = {"agent": agent}
"""Registered as the profile's ``offline``."""
