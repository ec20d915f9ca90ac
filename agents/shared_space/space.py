"""Who is in a mediator space and who may read what.

Participants live in the conversation's meta (``participants``; two by default). Every record
has an effective visibility: ``"shared"`` (everyone), a participant's name (that person
only), or ``None`` (the mediator's own working: tool calls, tool results, closing notes). The
model sees everything; a participant's view holds what is shared, what was sent privately to
them, and their own messages.

Visibility comes from the record's meta (``visibility``) when it is there. For a delivery
tool's result it is otherwise derived from the call it answers (``reply_privately``'s
``recipient``, ``post_to_shared`` → shared), so views work on any record set that includes
the calls. A mediator reply that used no delivery tool at all goes back privately to whoever
spoke, so a model that forgets its tools never leaves a participant unanswered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from agents.errors import ConfigError
from agents.shared_space import DEFAULT_PARTICIPANTS, SHARED
from agents.shared_space.action_names import (
    POST_TO_SHARED,
    PROPOSE_STATEMENT,
    REPLY_PRIVATELY,
    REVISE_STATEMENT,
)
from agents.shared_space.names import name_problem, skeleton
from storage.models import Conversation, MessageRecord
from storage.store import ConversationStore

MEDIATOR = "Mediator"
DELIVERY_TOOLS = frozenset({REPLY_PRIVATELY, POST_TO_SHARED, PROPOSE_STATEMENT, REVISE_STATEMENT})
"""The tools whose successful result delivers words to someone (a statement: to everyone)."""
_TO_EVERYONE = frozenset({POST_TO_SHARED, PROPOSE_STATEMENT, REVISE_STATEMENT})
_NAME = re.compile(r"^[^\[\]:\n]{1,40}$")
_RESERVED = {SHARED, "all", "everyone", MEDIATOR.lower()}


@dataclass(frozen=True, slots=True)
class SpaceMessage:
    """One line of a participant's (or the mediator's) view of the space."""

    record_id: str
    author: str
    content: str
    visibility: str | None
    created_at: datetime
    kind: Literal["said", "delivered", "reply", "internal"]
    statement: str | None = None
    """For a statement version: its label (``S1 v2 · monthly budget``)."""

    @property
    def is_private(self) -> bool:
        return self.visibility not in (SHARED, None)


def clean_participants(names: Sequence[str]) -> tuple[str, ...]:
    """Validated participant names: 1-40 characters, no brackets or colons, plain text that
    no other name looks like (:mod:`agents.shared_space.names`), not a reserved word; raises
    :class:`ConfigError` with a sentence."""
    cleaned: list[str] = []
    for raw in names:
        name = " ".join(str(raw).split())
        if not _NAME.match(name):
            raise ConfigError(
                f"{raw!r} cannot be a participant name: use 1-40 characters without "
                "brackets, colons or line breaks."
            )
        problem = name_problem(name)
        if problem is not None:
            raise ConfigError(f"{raw!r} cannot be a participant name: it {problem}.")
        if skeleton(name) in {skeleton(word) for word in _RESERVED}:
            raise ConfigError(f"{name!r} is a reserved word; choose another participant name.")
        if name.casefold() in (c.casefold() for c in cleaned):
            raise ConfigError(f"{name!r} is named twice; participant names must differ.")
        twin = next((c for c in cleaned if skeleton(c) == skeleton(name)), None)
        if twin is not None:
            raise ConfigError(
                f"{name!r} looks like {twin!r}; participant names must be told apart at a glance."
            )
        cleaned.append(name)
    if not cleaned:
        raise ConfigError("A space needs at least one participant.")
    return tuple(cleaned)


def participants_of(conversation: Conversation) -> tuple[str, ...]:
    """The space's participants (conversation meta ``participants``, else the default pair)."""
    stored = conversation.meta.get("participants")
    return tuple(stored) if stored else DEFAULT_PARTICIPANTS


def new_space(
    store: ConversationStore,
    participants: Sequence[str] = DEFAULT_PARTICIPANTS,
    title: str = "Mediation",
) -> Conversation:
    """Create a mediator conversation with its participants stored in meta."""
    names = clean_participants(participants)
    return store.create_conversation("mediator", title, meta={"participants": list(names)})


def set_participants(
    store: ConversationStore, conversation_id: str, participants: Sequence[str]
) -> Conversation:
    """Rename or add participants of an existing space."""
    return store.update_conversation_meta(
        conversation_id, participants=list(clean_participants(participants))
    )


def names_in_words(names: Sequence[str]) -> str:
    """``("Alex", "Sam", "Kim")`` → ``"Alex, Sam and Kim"``."""
    items = list(names)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def canonical_participant(name: str, participants: Sequence[str]) -> str | None:
    """``name`` as spelled in ``participants`` (case and spacing forgiven), or ``None``."""
    return next((p for p in participants if same_name(p, name)), None)


def _calls_by_id(records: Sequence[MessageRecord]) -> dict[str, dict[str, Any]]:
    return {
        call["id"]: call
        for record in records
        if record.role == "assistant"
        for call in record.tool_calls
        if call.get("id")
    }


def _delivery(record: MessageRecord, calls: dict[str, dict[str, Any]]) -> tuple[str, str] | None:
    """(visibility, content) of a successful delivery tool result, else ``None``."""
    name = record.meta.get("name")
    if record.role != "tool" or name not in DELIVERY_TOOLS or record.meta.get("error"):
        return None
    args = (calls.get(record.tool_call_id or "") or {}).get("args") or {}
    content = record.meta.get("delivered_content") or args.get("content") or args.get("text")
    visibility = record.meta.get("visibility") or (
        SHARED if name in _TO_EVERYONE else args.get("recipient")
    )
    if not content or not visibility:
        return None
    return str(visibility), str(content)


def record_visibility(record: MessageRecord, records: Sequence[MessageRecord] = ()) -> str | None:
    """The effective visibility of ``record`` (``"shared"``, a name, or ``None`` = internal).

    ``records`` (e.g. the path) lets a delivery result find the call it answers.
    """
    if record.role == "user":
        return record.meta.get("visibility") or record.meta.get("sender") or SHARED
    if record.role == "tool":
        delivered = _delivery(record, _calls_by_id(records))
        return delivered[0] if delivered else record.meta.get("visibility")
    if record.role == "assistant":
        return record.meta.get("visibility")
    return None


def visible_to(
    record: MessageRecord, participant: str, records: Sequence[MessageRecord] = ()
) -> bool:
    """Whether ``participant`` may read ``record`` (the model may read every record)."""
    if record.role == "user" and same_name(record.meta.get("sender"), participant):
        return True
    visibility = record_visibility(record, records)
    return visibility == SHARED or same_name(visibility, participant)


def view_for(records: Sequence[MessageRecord], participant: str | None) -> list[SpaceMessage]:
    """What ``participant`` sees of ``records`` (a path, root first), as view lines.

    ``participant=None`` is the mediator's view: everything, internal records included.
    """
    calls = _calls_by_id(records)
    view: list[SpaceMessage] = []
    speaker: str | None = None
    delivered_this_turn = False
    for record in _in_call_order(records):
        line: SpaceMessage | None = None
        if record.role == "user":
            speaker = record.meta.get("sender")
            delivered_this_turn = False
            visibility = record_visibility(record)
            line = SpaceMessage(
                record.id, speaker or "Someone", record.content, visibility,
                record.created_at, "said",
            )  # fmt: skip
        elif (delivered := _delivery(record, calls)) is not None:
            delivered_this_turn = True
            line = SpaceMessage(
                record.id, MEDIATOR, delivered[1], delivered[0], record.created_at, "delivered",
                statement_label(record),
            )  # fmt: skip
        elif record.role == "assistant" and record.content.strip() and not record.tool_calls:
            visibility = record.meta.get("visibility")
            kind: Literal["reply", "internal"] = "reply"
            if visibility is None and not delivered_this_turn and speaker:
                visibility = speaker  # an answer without delivery tools goes to the speaker
            elif visibility is None:
                kind = "internal"
            line = SpaceMessage(
                record.id, MEDIATOR, record.content, visibility, record.created_at, kind
            )
        elif participant is None and record.role in ("assistant", "tool") and record.content:
            line = SpaceMessage(
                record.id, MEDIATOR, record.content, None, record.created_at, "internal"
            )
        if line is not None and _sees(participant, line):
            view.append(line)
    return view


def _in_call_order(records: Sequence[MessageRecord]) -> list[MessageRecord]:
    """Records with each run of tool results put in the order of the calls they answer
    (parallel tools finish, and are recorded, in any order)."""
    position = {
        call.get("id"): index
        for record in records
        if record.role == "assistant"
        for index, call in enumerate(record.tool_calls)
    }
    ordered: list[MessageRecord] = []
    run: list[MessageRecord] = []
    for record in [*records, None]:
        if record is not None and record.role == "tool":
            run.append(record)
            continue
        ordered.extend(sorted(run, key=lambda r: position.get(r.tool_call_id, len(position))))
        run = []
        if record is not None:
            ordered.append(record)
    return ordered


def statement_label(record: MessageRecord) -> str | None:
    """``S1 v2 · monthly budget`` for a statement version's record, else ``None``."""
    meta = record.meta
    if meta.get("kind") != "statement" or meta.get("name") not in _TO_EVERYONE:
        return None
    topic = str(meta.get("topic") or "")
    label = f"{meta.get('statement') or 'S?'} v{meta.get('statement_version') or 1}"
    return f"{label} · {topic}" if topic else label


def same_name(a: str | None, b: str | None) -> bool:
    """Participant names compare without regard to case or spacing (the model may write
    "alex" for "Alex"; :func:`clean_participants` keeps names unique that way)."""
    return (
        a is not None
        and b is not None
        and " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
    )


def _sees(participant: str | None, line: SpaceMessage) -> bool:
    if participant is None or line.visibility == SHARED or same_name(line.visibility, participant):
        return True
    return line.kind == "said" and same_name(line.author, participant)


def shared_channel(records: Sequence[MessageRecord]) -> list[SpaceMessage]:
    """Only what everyone sees."""
    return [m for m in view_for(records, None) if m.visibility == SHARED]
