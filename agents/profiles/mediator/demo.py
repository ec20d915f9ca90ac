"""The mediator demo: a couple's financial-counselling flow, played through the runtime.

Alex and Sam each talk to the mediator, sometimes in the shared space and sometimes in
private, over eight turns: a shared wish for a budget, a debt Sam has kept secret, Alex's
private frustration, a savings plan, a holiday, Sam asking for help to disclose, the
disclosure, and a shared decision. Every turn lists the actions a sensible mediator takes
(tool and recipient); the offline model is held to them in the tests, and the app plays the
same scenario from its command palette ("Play mediator demo") with any model.

The demo goes through one statement round: the savings plan becomes a proposed statement, Alex
answers it "partly" with a critique and Sam agrees (each answer given as that participant, as
their seat would), the mediator revises it at the next turn, and both agree with the new
version, which makes it agreed. The demo plays the participants' part: their answers are
:attr:`DemoTurn.answers_after`, written by the demo as they would be at each seat.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from agents.runtime.events import MessageStored, RunError, RunEvent, ToolFinished, ToolStarted
from agents.runtime.user_message import NewMessage
from agents.shared_space.actions import (
    POST_TO_SHARED,
    PROPOSE_STATEMENT,
    REPLY_PRIVATELY,
    REVISE_STATEMENT,
)
from agents.shared_space.events import SHARED, UserMessageEvent
from agents.shared_space.space import new_space
from agents.shared_space.statements import (
    STATEMENT_TOOLS,
    answer_book,
    current_open,
    statement_board,
)
from storage.models import Conversation
from storage.store import ConversationStore

if TYPE_CHECKING:
    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime

logger = logging.getLogger(__name__)

DEMO_PARTICIPANTS = ("Alex", "Sam")
DEMO_TITLE = "Mediator demo: a couple's finances"


@dataclass(frozen=True, slots=True)
class ExpectedAction:
    """One delivery: the tool and who receives it (``"shared"`` for ``post_to_shared``)."""

    tool: str
    recipient: str


def private(name: str) -> ExpectedAction:
    return ExpectedAction(REPLY_PRIVATELY, name)


SHARED_POST = ExpectedAction(POST_TO_SHARED, SHARED)
PROPOSAL = ExpectedAction(PROPOSE_STATEMENT, SHARED)
REVISION = ExpectedAction(REVISE_STATEMENT, SHARED)


@dataclass(frozen=True, slots=True)
class DemoAnswer:
    """A participant's answer to the statement open after a turn, as their seat gives it."""

    participant: str
    answer: Literal["agree", "partly", "disagree"]
    critique: str = ""


@dataclass(frozen=True, slots=True)
class DemoTurn:
    """A participant's message, the channel it is sent in, and the mediator's expected actions."""

    sender: str
    content: str
    channel: Literal["private", "shared"]
    expected: tuple[ExpectedAction, ...]
    answers_after: tuple[DemoAnswer, ...] = ()
    """What the participants answer at their seats once the turn has ended."""

    def event(self) -> UserMessageEvent:
        return UserMessageEvent(
            sender=self.sender,
            content=self.content,
            visibility=SHARED if self.channel == "shared" else self.sender,
        )


DEMO_TURNS: tuple[DemoTurn, ...] = (
    DemoTurn(
        "Alex",
        "Hi, we'd like some help making a budget together. We keep arguing about money.",
        "shared",
        (private("Alex"), SHARED_POST),
    ),
    DemoTurn(
        "Sam",
        "Just between us: I have about $8,000 of credit card debt that Alex doesn't know "
        "about, and I'm scared to bring it up.",
        "private",
        (private("Sam"),),
    ),
    DemoTurn(
        "Alex",
        "Privately, I feel Sam spends too much on eating out, and I'm frustrated.",
        "private",
        (private("Alex"),),
    ),
    DemoTurn(
        "Sam",
        "I'd like us to agree on a monthly savings plan we can both stick to.",
        "shared",
        (private("Sam"), SHARED_POST, PROPOSAL),
        (
            DemoAnswer("Alex", "partly", "Only if there is room for a holiday too."),
            DemoAnswer("Sam", "agree"),
        ),
    ),
    DemoTurn(
        "Alex",
        "Could we also set aside money for a holiday trip next summer?",
        "shared",
        (private("Alex"), SHARED_POST, REVISION),
        (DemoAnswer("Alex", "agree"), DemoAnswer("Sam", "agree")),
    ),
    DemoTurn(
        "Sam",
        "In confidence: I want to tell Alex about the debt myself. Can you help me find the words?",
        "private",
        (private("Sam"),),
    ),
    DemoTurn(
        "Sam",
        "Alex, I have some credit card debt, and I'd like us to make a plan to pay it down "
        "together.",
        "shared",
        (private("Sam"), SHARED_POST, PROPOSAL),
    ),
    DemoTurn(
        "Alex",
        "Thank you for telling me. Let's agree to pay the debt down first and then save for "
        "the trip together.",
        "shared",
        (private("Alex"), SHARED_POST),
    ),
)


@dataclass(slots=True)
class PlayedTurn:
    """What happened in one demo turn: the user record, the deliveries made, every event."""

    index: int
    turn: DemoTurn
    user_message_id: str
    actions: list[ExpectedAction] = field(default_factory=list)
    events: list[RunEvent] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    """What of the turn's answers could not be given (one sentence each)."""

    @property
    def error(self) -> RunError | None:
        return next((e for e in self.events if isinstance(e, RunError)), None)


DemoListener = Callable[[int, DemoTurn, RunEvent], Awaitable[None] | None]


def create_demo_space(store: ConversationStore) -> Conversation:
    """A new mediator conversation for the demo, with Alex and Sam as participants."""
    return new_space(store, DEMO_PARTICIPANTS, DEMO_TITLE)


def deliveries(events: list[RunEvent]) -> list[ExpectedAction]:
    """The successful ``reply_privately`` / ``post_to_shared`` calls of a turn, in order."""
    started = [e for e in events if isinstance(e, ToolStarted)]
    order = {e.call_id: index for index, e in enumerate(started)}
    args = {e.call_id: e.args for e in started}
    done = sorted(
        (e for e in events if isinstance(e, ToolFinished) and e.error is None),
        key=lambda e: order.get(e.call_id, len(order)),
    )
    found: list[ExpectedAction] = []
    for event in done:
        if event.name == REPLY_PRIVATELY:
            found.append(private(str(args.get(event.call_id, {}).get("recipient", "?"))))
        elif event.name == POST_TO_SHARED:
            found.append(SHARED_POST)
        elif event.name in STATEMENT_TOOLS:
            found.append(ExpectedAction(event.name, SHARED))
    return found


def give_answers(store: ConversationStore, conversation_id: str, turn: DemoTurn) -> list[str]:
    """Give the participants' answers of ``turn`` to the statement open now (as their seats
    would); one sentence for each that could not be given (no statement open, say)."""
    if not turn.answers_after:
        return []
    statement = current_open(statement_board(store, conversation_id, None))
    if statement is None:
        return [f"no statement was open for {a.participant} to answer" for a in turn.answers_after]
    book = answer_book(store)
    if book is None:
        return ["the answers need a store on a SQLite file"]
    try:
        for answer in turn.answers_after:
            book.answer(
                conversation_id,
                statement.latest.record_id,
                answer.participant,
                answer.answer,
                answer.critique,
            )
    finally:
        book.close()
    return []


async def play_demo(
    runtime: AgentRuntime,
    model: ChatModelHandle,
    conversation_id: str,
    on_event: DemoListener | None = None,
) -> list[PlayedTurn]:
    """Play every demo turn in ``conversation_id`` through ``runtime``; stop at a failed turn.

    Each turn sends the participant's message below the active leaf through the runtime (meta ``sender`` and
    ``visibility``), then runs the mediator on it; ``on_event(index, turn, event)`` (sync or
    async) sees every event as it streams, so the app can show the turn live.
    """
    played: list[PlayedTurn] = []
    for index, turn in enumerate(DEMO_TURNS):
        event = turn.event()
        message = NewMessage(
            profile="mediator",
            text=event.content,
            conversation_id=conversation_id,
            at_active_leaf=True,
            meta=event.record_meta(),
        )
        result = PlayedTurn(index, turn, "")  # its id comes with MessageStored
        played.append(result)
        async for run_event in runtime.send(message, model=model, sender=turn.sender):
            if isinstance(run_event, MessageStored):
                result.user_message_id = run_event.record.id
            result.events.append(run_event)
            if on_event is not None:
                outcome = on_event(index, turn, run_event)
                if inspect.isawaitable(outcome):
                    await outcome
        result.actions = deliveries(result.events)
        if result.error is None:
            result.misses = give_answers(runtime.store, conversation_id, turn)
        logger.info(
            "demo turn %d by %s: %s",
            index + 1,
            turn.sender,
            ", ".join(f"{a.tool}->{a.recipient}" for a in result.actions) or "no delivery",
        )
        if result.error is not None:
            break
    return played
