"""Steering a running turn: messages the user sends into it, read at its next model call.

The runtime gives each turn a :class:`SteerInbox` (in ``TurnContext.extra`` under
:data:`STEER_INBOX_KEY`); a front end puts the user's words into it while the turn runs
(:meth:`agents.runtime.agent_runtime.AgentRuntime.steer`). The shared agent node takes what
waits there before a model call that follows a tool round (:func:`take_steers`), so the words
join the turn after the round that was running, as user messages the model reads with that
round's results; the runtime records each one in the tree where it was read (below the round's
last result, above the reply that reads it). The turn's first call is already under way when
a steer can arrive, so it is never read there.

Who reads steers: every profile whose loop is the shared agent node (ide-helper, mediator,
and any graph built with :func:`agents.graph.react.build_react_graph`). paper-pilot's
strategies (its ReAct among them) search inside one node and write the answer in a last
stage, with no model call that takes the user's words between rounds, and atom-developer's
stages likewise: a steer sent during their turns is handed back when the turn ends and the
app sends it as the next message.

The guarantee, for any interleaving of puts, takes and the turn's end: every steer the inbox
accepted is either read by exactly one model call (``joined``) or handed back exactly once
when the turn ends (``returned``: the front end sends it as the next message); a put after
the end is refused (``None``), so the caller keeps the words. Nothing is lost, nothing is
read twice.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from langchain_core.messages import AnyMessage, HumanMessage, ToolMessage
from langgraph.config import get_stream_writer

STEER_INBOX_KEY: Final = "steer_inbox"
"""Where the turn's inbox sits in ``TurnContext.extra``."""
STEER_EVENT_KEY: Final = "weaver_steer"
"""The custom-stream payload key of a steer read by a model call (its words)."""
STEER_META_KEY: Final = "meta"
"""The custom-stream payload key of the steer's record meta (who said it, to whom)."""
STEER_ID_PREFIX: Final = "steer-"
"""The id prefix of a steer's message in the graph state (ids are never sent to a model)."""

SteerState = Literal["waiting", "joined", "returned"]


@dataclass(slots=True)
class Steer:
    """One message sent into a running turn, and what became of it: ``meta`` is what its
    record keeps of who said it and to whom; ``message`` how the model reads it (the words,
    and who said them, as the turn's history sends a user record)."""

    text: str
    state: SteerState = "waiting"
    meta: dict[str, Any] = field(default_factory=dict)
    message: HumanMessage | None = None


class SteerInbox:
    """The steers of one running turn (safe to use from any thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: list[Steer] = []
        self._closed = False

    def put(
        self, text: str, meta: dict[str, Any] | None = None, message: HumanMessage | None = None
    ) -> Steer | None:
        """Hand ``text`` to the turn; ``None`` when the turn has ended (keep the words)."""
        with self._lock:
            if self._closed:
                return None
            steer = Steer(text, meta=dict(meta or {}), message=message)
            self._waiting.append(steer)
            return steer

    def take(self) -> list[Steer]:
        """The steers waiting, in order, now read by the model call about to run."""
        with self._lock:
            taken, self._waiting = self._waiting, []
            for steer in taken:
                steer.state = "joined"
            return taken

    def close(self) -> list[Steer]:
        """The turn ended: the steers no model call read, handed back; later puts are refused."""
        with self._lock:
            self._closed = True
            returned, self._waiting = self._waiting, []
            for steer in returned:
                steer.state = "returned"
            return returned


def is_steer(message: AnyMessage) -> bool:
    """Whether ``message`` is a steer read during this turn (not the message that began it)."""
    return isinstance(message, HumanMessage) and (message.id or "").startswith(STEER_ID_PREFIX)


def take_steers(extra: Mapping[str, Any], messages: Sequence[AnyMessage]) -> list[HumanMessage]:
    """The steers that join the model call about to run, as user messages (each announced on
    the custom stream, so the runtime records it before the reply that reads it): only after
    a tool round (the last message a tool result); none when the turn has no inbox, or runs
    where nothing records them (no stream): they are then handed back at the turn's end."""
    inbox = extra.get(STEER_INBOX_KEY)
    if not isinstance(inbox, SteerInbox) or not messages:
        return []
    if not isinstance(messages[-1], ToolMessage):
        return []
    try:
        writer = get_stream_writer()
    except RuntimeError:
        return []
    joined: list[HumanMessage] = []
    for steer in inbox.take():
        writer({STEER_EVENT_KEY: steer.text, STEER_META_KEY: dict(steer.meta)})
        message = steer.message or HumanMessage(steer.text)
        joined.append(message.model_copy(update={"id": f"{STEER_ID_PREFIX}{uuid.uuid4().hex}"}))
    return joined
