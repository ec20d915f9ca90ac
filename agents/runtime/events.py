"""What one turn yields, as plain dataclasses the UI (or the CLI) turns into its own messages.

Order within a turn: ``TurnStarted`` first; then any mix of ``TokenDelta``, ``ReasoningDelta``,
``AnswerDraft``, ``ToolStarted``, ``ToolFinished``, ``NodeStatus``, ``RecordSaved`` and ``Usage``; then exactly
one of ``RunFinished`` (status complete or cancelled) or ``RunError`` last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from agents.errors import WeaverError
from storage.models import Conversation, MessageRecord


@dataclass(frozen=True, slots=True)
class MessageStored:
    """The user's message was committed (its conversation created or retitled first), before
    any model is called: ``record`` and ``conversation`` as written."""

    conversation: Conversation
    record: MessageRecord


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """The turn began; ``reply`` is the assistant record being streamed into, as written
    (status streaming, no text yet), so a consumer shows it without reading the store."""

    conversation_id: str
    user_message_id: str
    reply: MessageRecord
    provider: str
    model: str
    profile: str

    @property
    def reply_id(self) -> str:
        return self.reply.id


@dataclass(frozen=True, slots=True)
class TokenDelta:
    """A piece of the answer stream for record ``message_id`` (never tokens of internal LLM calls)."""

    message_id: str
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    """A piece of a thinking model's reasoning for record ``message_id``: sent apart by the
    server or written inline in ``<think>`` tags, it is never part of the answer's text."""

    message_id: str
    text: str


DraftStage = Literal["draft", "rejected", "checked", "unchecked", "settled"]


@dataclass(frozen=True, slots=True)
class AnswerDraft:
    """The reply ``record`` streams as a draft that a check settles later.

    ``draft``: a draft starts streaming (``withdrawn``: the text streamed into the reply before,
    a rejected draft, is taken back; the new draft replaces it). ``rejected``: the check sent
    the draft back and a retry follows. ``checked`` / ``unchecked`` (``note`` says why): the
    check settled it. ``settled``: the answer as stored replaces the draft: ``withdrawn`` is
    true and the settled text follows as ``TokenDelta``. A consumer that must never present a
    rejected draft as the answer (the CLI, an editor) treats the reply's text as the answer
    only after ``settled``. ``record`` is the reply as written (``meta["check"]`` holds the
    state, so a reply cut short mid-draft stays marked as one)."""

    record: MessageRecord
    stage: DraftStage
    note: str = ""
    withdrawn: bool = False

    @property
    def message_id(self) -> str:
        return self.record.id


@dataclass(frozen=True, slots=True)
class ToolStarted:
    call_id: str
    name: str
    args: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolFinished:
    call_id: str
    name: str
    output: str
    error: str | None
    duration_ms: float


@dataclass(frozen=True, slots=True)
class NodeStatus:
    """A graph stage line, e.g. ``NodeStatus("validate", "Running compliance tests ...")``."""

    node: str
    text: str
    state: Literal["running", "done", "error"] = "running"


@dataclass(frozen=True, slots=True)
class RecordSaved:
    """A record was committed during the turn (an assistant tool-call record, a tool result,
    a mediator's private reply, the next assistant record streamed into, the turn's last
    record as it was closed). ``record`` is the record exactly as written: the UI updates
    its tree and rows from it and never reads it back from the store.

    Text streamed into a record between two of these arrives as ``TokenDelta`` only (a
    streaming record is flushed to the store without an event)."""

    record: MessageRecord

    @property
    def message_id(self) -> str:
        return self.record.id

    @property
    def role(self) -> str:
        return self.record.role

    @property
    def parent_id(self) -> str | None:
        return self.record.parent_id


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens (and cost) of one model call, or summed over a turn's calls.

    A detail is ``None`` when no call reported it, so "not reported" never reads as zero:
    ``cached_tokens`` (of the input, read from the provider's cache), ``reasoning_tokens`` (of
    the output, spent thinking), ``cost`` (as the server counts it, e.g. OpenRouter's credits).
    """

    input_tokens: int
    output_tokens: int
    total_tokens: int
    cached_tokens: int | None = None
    reasoning_tokens: int | None = None
    cost: float | None = None

    def plus(self, other: Usage) -> Usage:
        """The sum; a detail only one side reported is that side's; costs add as decimals
        (``0.1 + 0.2`` is ``0.3``), so a turn's cost is the exact sum of what was reported."""
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
            _add(self.cached_tokens, other.cached_tokens),
            _add(self.reasoning_tokens, other.reasoning_tokens),
            _add_cost(self.cost, other.cost),
        )

    def as_meta(self) -> dict[str, Any]:
        """As a record keeps it: the counts, and each detail that was reported."""
        meta: dict[str, Any] = {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.total_tokens,
        }
        for key in ("cached_tokens", "reasoning_tokens", "cost"):
            value = getattr(self, key)
            if value is not None:
                meta[key] = value
        return meta


def _add(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else a + b


def _add_cost(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return b if a is None else a
    return float(Decimal(repr(a)) + Decimal(repr(b)))


@dataclass(frozen=True, slots=True)
class RunError:
    """The turn failed; ``error.user_message`` is the one sentence to show.

    ``record`` is the reply the runtime marked failed (status error, the sentence in
    ``meta["error"]``), as written; ``None`` when the turn failed before it had a reply."""

    error: WeaverError
    record: MessageRecord | None = None

    @property
    def reply_id(self) -> str | None:
        return self.record.id if self.record is not None else None


@dataclass(frozen=True, slots=True)
class RunFinished:
    """The turn ended. ``leaf_id`` is the last record written (the new active leaf)."""

    status: Literal["complete", "cancelled"]
    leaf_id: str
    record_ids: list[str] = field(default_factory=list)
    latency_ms: float = 0.0
    usage: Usage | None = None
    paused: bool = False
    """The turn stopped to wait for the user (a profile's ``interrupt()``, e.g. the ide-helper's
    patch review); ``AgentRuntime.resume_turn`` continues it."""


@dataclass(frozen=True, slots=True)
class ReplyEdited:
    """The user's words were stored as a new version of a reply (beside it, never over it):
    ``record`` as written. No turn runs; a front end may continue it next."""

    record: MessageRecord


@dataclass(frozen=True, slots=True)
class BranchCopied:
    """The path to ``message_id`` was copied into ``conversation`` (as written), ``copied``
    records long; the original is untouched."""

    conversation: Conversation
    message_id: str
    copied: int


@dataclass(frozen=True, slots=True)
class BranchDeleted:
    """``message_id`` and every record below it were deleted; ``leaf`` is the conversation's
    active leaf afterwards, as stored (``None``: nothing is left)."""

    conversation_id: str
    message_id: str
    leaf: MessageRecord | None


TreeEvent = ReplyEdited | BranchCopied | BranchDeleted | RecordSaved | RunError
"""What a tree operation outside a turn returns (:mod:`agents.runtime.tree_edits`): the event
that carries what it wrote (``RecordSaved`` a record it changed), or a ``RunError`` saying in
one sentence why nothing was written."""


RunEvent = (
    MessageStored
    | TurnStarted
    | TokenDelta
    | ReasoningDelta
    | AnswerDraft
    | ToolStarted
    | ToolFinished
    | NodeStatus
    | RecordSaved
    | Usage
    | RunError
    | RunFinished
)
