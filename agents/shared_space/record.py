"""The record of a mediation: what was agreed, what is still open, and when, as Markdown.

The shared record (``participant=None``) is what every participant may read: the agreed
statements with each version and who endorsed the agreed one when, the statements still
open with who has answered, the agenda's topics with their states, and the dates. A participant's own copy adds their own private
exchange with the mediator and their own answers, read through the store's viewer filter as
their seat reads them, so nothing another person said privately (nor their critiques) can
reach it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from agents.shared_space.agenda import agenda_for
from agents.shared_space.seat_view import seat_lines
from agents.shared_space.space import MEDIATOR, canonical_participant, participants_of, same_name
from agents.shared_space.statements import Statement, statement_board
from storage.printable import printable
from storage.store import ConversationStore


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in printable(text).splitlines())


def _agreed(statement: Statement) -> list[str]:
    assert statement.agreed is not None
    mark = statement.agreed
    version = next(v for v in statement.versions if v.record_id == mark.record_id)
    lines = [
        f"### {statement.key} · {printable(statement.topic)}",
        "",
        f"Agreed at version {mark.number} on {_when(mark.at)}.",
        "",
        _quoted(version.text),
        "",
        "Endorsed by: "
        + ", ".join(
            f"{printable(a.participant)} ({_when(a.answered_at)})"
            for a in statement.answers.get(mark.record_id, [])
        )
        + ".",
    ]
    if len(statement.versions) > 1:
        lines += ["", "Versions:"]
        lines += [
            f"- v{v.number} ({_when(v.created_at)}): {printable(v.text)}"
            for v in statement.versions
        ]
    return [*lines, ""]


def _open(statement: Statement, people: Sequence[str]) -> str:
    latest = statement.latest
    answered = statement.answered()
    missing = [p for p in people if not any(same_name(p, a) for a in answered)]
    waiting = f"; not yet answered by {', '.join(missing)}" if missing else ""
    return (
        f"- {statement.key} · {printable(statement.topic)}, version {latest.number} "
        f"({_when(latest.created_at)}): {printable(latest.text)}{waiting}"
    )


def space_record(
    store: ConversationStore, conversation_id: str, participant: str | None = None
) -> str:
    """The record as Markdown; ``participant`` (a name of the space) for their own copy.
    Raises ``ValueError`` with one sentence for a name that is not a participant."""
    conversation = store.get_conversation(conversation_id)
    people = participants_of(conversation)
    name = None
    if participant is not None:
        name = canonical_participant(participant, people)
        if name is None:
            raise ValueError(
                f"{participant!r} is not a participant of this space; the participants are "
                f"{', '.join(people)}."
            )
    board = statement_board(store, conversation_id, name or "shared")
    agreed = [s for s in board if s.agreed is not None]
    still_open = [s for s in board if s.agreed is None]
    title = printable(conversation.title)
    lines = [
        f"# Record: {title}" + (f" ({printable(name)}'s copy)" if name else ""),
        "",
        f"Participants: {', '.join(printable(p) for p in people)}.",
        f"Started {_when(conversation.created_at)}; last change {_when(conversation.updated_at)}.",
        "",
        "## Agreed",
        "",
    ]
    for statement in agreed:
        lines += _agreed(statement)
    if not agreed:
        lines += ["Nothing agreed yet.", ""]
    lines += ["## Open", ""]
    lines += [_open(s, people) for s in still_open] or ["No statement is open."]
    lines.append("")
    agenda = agenda_for(store, conversation_id, name or "shared", board)
    if agenda:
        lines += ["## Agenda", ""]
        lines += [f"- {printable(item.topic)}: {item.state}" for item in agenda]
        lines.append("")
    if name is not None:
        lines += _own_copy(store, conversation_id, name, board)
    return "\n".join(lines).rstrip() + "\n"


def _own_copy(
    store: ConversationStore, conversation_id: str, name: str, board: Sequence[Statement]
) -> list[str]:
    lines = ["## Your answers", ""]
    mine = [
        (statement, version, answer)
        for statement in board
        for version in statement.versions
        for answer in statement.answers.get(version.record_id, [])
        if same_name(answer.participant, name)
    ]
    for statement, version, answer in mine:
        critique = f' ("{printable(answer.critique)}")' if answer.critique else ""
        lines.append(
            f"- {statement.key} v{version.number}: {answer.answer}{critique}, "
            f"{_when(answer.answered_at)}"
        )
    if not mine:
        lines.append("You have not answered a statement.")
    lines += ["", "## Your private exchange with the mediator", ""]
    private = [line for line in seat_lines(store, conversation_id, name) if line.is_private]
    for line in private:
        who = "You" if same_name(line.author, name) else MEDIATOR
        words = printable(line.content).replace("\n", "\n  ")
        lines.append(f"- {_when(line.created_at)}, {who}: {words}")
    if not private:
        lines.append("Nothing was said privately.")
    return [*lines, ""]
