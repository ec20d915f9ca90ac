"""The space's agenda and the fairness meter: what is on the table, and who is heard.

The mediator keeps a short list of the topics raised (``set_agenda``); the newest list on the
branch is the agenda, a tool record shared with everyone (meta ``kind: "agenda"``). Each
topic's state comes from the statements of the branch, never from what the model says about
it: ``agreed`` when a statement on that topic is agreed (every participant agreed at their
seat), ``statement proposed`` when one is open, else ``open``.

The meter, for the host's panel: each participant's share of the words written on the branch
(every channel: the facilitator reads them all), and whose points the current statement
reflects, as its declaration names them (``reflects`` and ``draws_on``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from agents.shared_space.actions import SET_AGENDA
from agents.shared_space.space import participants_of, same_name
from agents.shared_space.statements import Statement
from storage.models import MessageRecord
from storage.store import ConversationStore, NotFoundError

AGENDA_KIND: Final = "agenda"
MAX_TOPICS: Final = 8
TOPIC_CHARS: Final = 80
TopicState = Literal["open", "statement proposed", "agreed"]


@dataclass(frozen=True, slots=True)
class AgendaTopic:
    topic: str
    state: TopicState


def agenda_on(path: Iterable[MessageRecord]) -> list[str]:
    """The newest agenda of a branch (root first), else none."""
    topics: list[str] = []
    for record in path:
        meta = record.meta
        if (
            record.role == "tool"
            and meta.get("kind") == AGENDA_KIND
            and meta.get("name") == SET_AGENDA
            and not meta.get("error")
        ):
            topics = [str(t) for t in meta.get("topics") or []]
    return topics


def topic_states(topics: Sequence[str], statements: Sequence[Statement]) -> list[AgendaTopic]:
    """Each topic with its state, from the statements whose topic is the same words."""
    found: list[AgendaTopic] = []
    for topic in topics:
        mine = [s for s in statements if same_name(s.topic, topic)]
        state: TopicState = (
            "agreed"
            if any(s.agreed is not None for s in mine)
            else "statement proposed"
            if mine
            else "open"
        )
        found.append(AgendaTopic(topic, state))
    return found


LABEL_PUNCTUATION: Final = frozenset(".,-'’&/+%:;!?")
"""The signs a topic may hold besides letters, digits, spaces and currency signs."""


def label_problem(label: str) -> str | None:
    """Why ``label`` (a topic the model names) cannot be shown to everyone, as a sentence for
    the model; ``None`` when it can. A label is plain words (an allowlist: letters, digits,
    spaces, currency signs and :data:`LABEL_PUNCTUATION`), so it cannot draw what only the
    seats draw from the participants' answers: a state mark (``✔``, ``○``, ``◐``) or a state
    in brackets (``(agreed)``)."""
    for ch in label:
        kind = unicodedata.category(ch)
        if kind[0] in "LMN" or kind in ("Zs", "Sc") or ch in LABEL_PUNCTUATION:
            continue
        return (
            f"The topic {label!r} holds {ch!r}: name it in plain words (letters, digits, "
            "spaces and simple punctuation, no brackets or symbols)."
        )
    return None


def clean_topics(topics: Sequence[str]) -> list[str]:
    """At most :data:`MAX_TOPICS` distinct topics of at most :data:`TOPIC_CHARS` characters,
    on one line each, in plain words (:func:`label_problem`); raises ``ValueError`` with one
    sentence when one is not or none is left."""
    cleaned: list[str] = []
    for raw in topics:
        topic = " ".join(str(raw).split())[:TOPIC_CHARS]
        problem = label_problem(topic)
        if problem is not None:
            raise ValueError(problem)
        if topic and not any(same_name(topic, t) for t in cleaned):
            cleaned.append(topic)
    if not cleaned:
        raise ValueError("The agenda is empty; name the topics raised, a few words each.")
    if len(cleaned) > MAX_TOPICS:
        raise ValueError(f"Keep the agenda to {MAX_TOPICS} topics; merge or drop some.")
    return cleaned


def word_shares(path: Iterable[MessageRecord], participants: Sequence[str]) -> dict[str, int]:
    """Words each participant wrote on the branch (their user records), in their order."""
    counts = dict.fromkeys(participants, 0)
    for record in path:
        if record.role != "user" or not record.sender:
            continue
        name = next((p for p in participants if same_name(p, record.sender)), None)
        if name is not None:
            counts[name] += len(record.content.split())
    return counts


def meter_line(shares: dict[str, int], current: Statement | None) -> str:
    """``Words: Alex 60% · Sam 40%`` and, with an open statement, whose points it reflects."""
    total = sum(shares.values())
    parts = [
        f"{name} {round(100 * count / total) if total else 0}%" for name, count in shares.items()
    ]
    line = "Words: " + " · ".join(parts)
    if current is not None:
        named = current.latest.reflects
        line += f" | {current.key} reflects: " + (", ".join(named) if named else "nobody named")
    return line


def _path(
    store: ConversationStore, conversation_id: str, viewer: str | None, leaf_id: str | None
) -> list[MessageRecord]:
    leaf = leaf_id or store.get_conversation(conversation_id).meta.get("active_leaf")
    if not leaf:
        return []
    try:
        return store.path_to_root(str(leaf), viewer)
    except NotFoundError:
        return []


def agenda_for(
    store: ConversationStore,
    conversation_id: str,
    viewer: str | None,
    statements: Sequence[Statement],
    leaf_id: str | None = None,
) -> list[AgendaTopic]:
    """The agenda of the active branch (or the one ending at ``leaf_id``) with each topic's
    state, read as ``viewer`` reads the branch (the agenda is everyone's)."""
    return topic_states(agenda_on(_path(store, conversation_id, viewer, leaf_id)), statements)


def shares_for(
    store: ConversationStore, conversation_id: str, leaf_id: str | None = None
) -> dict[str, int]:
    """The meter's word counts for the facilitator (who reads every record of the branch)."""
    people = participants_of(store.get_conversation(conversation_id))
    return word_shares(_path(store, conversation_id, None, leaf_id), people)


def agenda_notes(agenda: Sequence[AgendaTopic]) -> str:
    """The agenda as the mediator reads it (its system prompt)."""
    if not agenda:
        return ""
    lines = ["", "## Agenda (set_agenda keeps it; a topic is agreed only at the seats)"]
    lines += [f"- {item.topic}: {item.state}" for item in agenda]
    return "\n".join(lines) + "\n"
