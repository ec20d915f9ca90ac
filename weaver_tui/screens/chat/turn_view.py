"""Shows one running turn: applies the runtime's events to the chat's widgets.

The events carry the turn's records as the runtime wrote them (``TurnStarted`` the reply,
``RecordSaved`` every record written or closed, ``RunError`` the reply it marked failed). The
chat's controller applies each event to the state before the view sees it
(:mod:`weaver_tui.core.chat_controller.applying`); the view draws what the event carries, changes
nothing in the state, and never reads a record of the turn back from the store, nor writes one
(the runtime is the turn's only writer, a failure included).

The turn worker hands every :mod:`agents.runtime.events` event to :meth:`TurnView.apply`, except
answer tokens, which go through :meth:`TurnView.buffer_tokens`: they collect in a per-message
buffer and the screen is told once (a :class:`~weaver_tui.messages.TokensArrived`) when a
buffer goes from empty to non-empty. The handler drains the whole buffer into the message
view in one append, so a fast stream costs one view update per screen message-loop turn, not
one per token, and key presses queued meanwhile are never behind a backlog of token messages.
Before any other event the buffers are drained, so text and tool rows appear in order. A
thinking model's reasoning (:class:`~agents.runtime.events.ReasoningDelta`) takes the same path into
its own buffer, and the view adds it to the reply's folded thinking line. A reply streamed
as a draft (:class:`~agents.runtime.events.AnswerDraft`) carries its state in its badge; a
withdrawn draft is emptied from the view and the text that replaces it streams in.

A profile may show a turn through a filter (``row_for``): given a record id it returns the row
the view shows for it (rewritten, e.g. a mediator delivery as the mediator's message) or
``None`` when the reader of that view may not see it. A hidden record's tokens never reach the
view; it is asked again whenever the record is saved, so a reply appears once it is visible.
When the reader switches views mid-turn, :meth:`TurnView.reshow` redraws the path through the
new view at once (with everything streamed so far) and filters every later token by it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from agents.runtime.events import (
    AnswerDraft,
    NodeStatus,
    ReasoningDelta,
    RecordSaved,
    RunError,
    RunEvent,
    RunFinished,
    TokenDelta,
    ToolFinished,
    ToolStarted,
    TurnStarted,
    Usage,
)
from storage.models import MessageRecord, MessageStatus
from weaver_tui.core.chat_state import ChatState
from weaver_tui.core.message_item import Status, as_status
from weaver_tui.widgets.chat_header import ChatHeader
from weaver_tui.widgets.conversation_tree import ConversationTree
from weaver_tui.widgets.message_view import MessageView
from weaver_tui.widgets.tool_pane import ToolStatusPane

if TYPE_CHECKING:
    from weaver_tui.widgets.message_view import MessageItem

logger = logging.getLogger(__name__)

RowFilter = Callable[[str], "MessageItem | None"]
"""A record id -> the row the view shows for it, or ``None`` to keep it out of the view."""

YIELD_EVERY_S = 0.004
"""The longest the turn worker keeps the event loop before letting the screen run."""


@dataclass
class TurnOutcome:
    """How the turn ended, for the screen (retry, notifications, tests)."""

    status: str = "running"
    user_message_id: str | None = None
    """The user's message the turn answers."""
    leaf_id: str | None = None
    error: str | None = None
    reply_ids: list[str] = field(default_factory=list)
    paused: bool = False
    """The turn stopped to wait for the user (a review, an approval)."""


class TurnView:
    """Applies one turn's events to the message view, tree, tool pane and header."""

    def __init__(
        self,
        state: ChatState,
        *,
        view: MessageView,
        tree: ConversationTree,
        tools: ToolStatusPane,
        header: ChatHeader,
        notify_tokens: Callable[[str], object],
        row_for: RowFilter | None = None,
        add_to_tree: Callable[[MessageRecord], object] | None = None,
        shows_calls: Callable[[], bool] = lambda: True,
    ) -> None:
        self.state = state
        self.view = view
        self.tree = tree
        self.tools = tools
        self.header = header
        self.notify_tokens = notify_tokens
        self.outcome = TurnOutcome()
        self._buffers: dict[str, list[str]] = {}
        self._thoughts: dict[str, list[str]] = {}
        """Reasoning waiting for the view, per message (drained with ``_buffers``)."""
        self._shown: set[str] = set()
        self._hidden: set[str] = set()
        """Records of this turn the filter keeps out of the view (for now)."""
        self._streamed: dict[str, list[str]] = {}
        """Every token of this turn per record, shown or not (to redraw it in another view)."""
        self._reasoned: dict[str, list[str]] = {}
        """Likewise every piece of reasoning."""
        self.row_for = row_for
        self.add_to_tree = add_to_tree or tree.add_record
        """How a new record of the turn reaches the tree pane (a reader's view reads the
        reader's tree again from the store instead of adding it)."""
        self.shows_calls = shows_calls
        """Whether the tool pane shows the agent's tool calls now (a reader's view does not:
        the agent's working, a private reply's arguments included, is not theirs to read)."""
        self._usage: Usage | None = None

    # ------------------------------------------------------------------ tokens

    def buffer_tokens(self, event: TokenDelta | ReasoningDelta) -> None:
        """Keep the text; tell the screen only if this message had nothing buffered."""
        message_id = event.message_id
        buffer = self._buffers.setdefault(message_id, [])
        thoughts = self._thoughts.setdefault(message_id, [])
        if not buffer and not thoughts:
            self.notify_tokens(message_id)
        (thoughts if isinstance(event, ReasoningDelta) else buffer).append(event.text)

    def drain(self, message_id: str | None = None) -> None:
        """Append everything buffered (for one message, or all) to the message view."""
        ids = [message_id] if message_id is not None else list(self._buffers)
        for current in ids:
            buffer = self._buffers.get(current)
            thoughts = self._thoughts.get(current)
            if not buffer and not thoughts:
                continue
            if current not in self._shown:
                self._show_new(self._record_of(current))
            if thoughts:
                reasoning = "".join(thoughts)
                thoughts.clear()
                self._reasoned.setdefault(current, []).append(reasoning)
                if current not in self._hidden:
                    self.view.append_reasoning(current, reasoning)
            if buffer:
                text = "".join(buffer)
                buffer.clear()
                self._streamed.setdefault(current, []).append(text)
                if current not in self._hidden:
                    self.view.append_text(current, text)

    def streamed(self, record_id: str) -> str:
        """The text this turn has streamed into ``record_id`` so far."""
        return "".join(self._streamed.get(record_id, ()))

    def reasoned(self, record_id: str) -> str:
        """The reasoning this turn has streamed into ``record_id`` so far."""
        return "".join(self._reasoned.get(record_id, ()))

    def reshow(self, items: list[MessageItem]) -> None:
        """The reader chose another view mid-turn: show ``items`` (the active path through
        it), this turn's streaming records with all their text so far, and from now on keep
        the records it leaves out hidden from every token."""
        self.drain()
        rows = []
        for item in items:
            streamed = item.id in self._streamed or item.id in self._reasoned
            if streamed and item.id in self._shown:
                record = self.state.index.get(item.id)
                if record.status == MessageStatus.STREAMING:
                    item = replace(
                        item,
                        content=self.streamed(item.id),
                        reasoning=self.reasoned(item.id),
                        status="streaming",
                    )
            rows.append(item)
        self.view.set_messages(rows)
        visible = {item.id for item in rows}
        self._hidden = {record_id for record_id in self._shown if record_id not in visible}

    # ------------------------------------------------------------------ events

    async def consume(self, events: AsyncIterator[RunEvent]) -> None:
        """Apply every event of a turn, handing the event loop back at least every
        ``YIELD_EVERY_S`` even if the stream never pauses (the offline model can be that fast),
        so the screen keeps answering keys."""
        last_yield = time.perf_counter()
        async for event in events:
            self.apply(event)
            if time.perf_counter() - last_yield > YIELD_EVERY_S:
                await asyncio.sleep(0)
                last_yield = time.perf_counter()
        self.drain()

    def apply(self, event: RunEvent) -> None:
        """Show one non-token event (draining buffered text first, to keep the order)."""
        if isinstance(event, TokenDelta | ReasoningDelta):
            self.buffer_tokens(event)
            return
        self.drain()
        if isinstance(event, TurnStarted):
            self._started(event)
        elif isinstance(event, RecordSaved):
            self._record_saved(event)
        elif isinstance(event, AnswerDraft):
            self._draft(event)
        elif isinstance(event, ToolStarted | ToolFinished):
            self._tool_event(event)
        elif isinstance(event, NodeStatus):
            stage = self.state.traits.stages.get(event.node)
            text = f"{stage}: {event.text}" if stage and event.text else stage or event.text
            self.tools.stage(event.node, text, event.state)
        elif isinstance(event, Usage):
            self._usage = event
        elif isinstance(event, RunError):
            self._failed(event)
        elif isinstance(event, RunFinished):
            self._finished(event)

    def _tool_event(self, event: ToolStarted | ToolFinished) -> None:
        if not self.shows_calls():
            return
        if isinstance(event, ToolStarted):
            self.tools.tool_started(event.call_id, event.name, event.args)
        else:
            self.tools.tool_finished(
                event.call_id, event.name, event.output, event.error, event.duration_ms
            )

    def _started(self, event: TurnStarted) -> None:
        self.header.provider = event.provider
        self.header.model = event.model
        self.tools.turn_reply_id = event.reply.id
        self._show_new(event.reply)

    def _show_new(self, record: MessageRecord) -> None:
        """A record of this turn appears: in the tree and at the end of the view (the state
        holds it, and has made it the leaf, since the controller applied its event)."""
        self._shown.add(record.id)
        self.outcome.reply_ids.append(record.id)
        self.add_to_tree(record)
        self.tree.follow(record.id)
        row = self._row(record.id)
        if row is None:
            self._hidden.add(record.id)
            return
        self.view.start_message(row)
        if record.status != MessageStatus.STREAMING:
            self.view.finish_message(record.id, as_status(record.status.value))

    def _record_of(self, record_id: str) -> MessageRecord:
        """The record tokens stream into. The runtime announces every record before its first
        token, so it is in the index; reading it is only a guard against a stream that did not."""
        if record_id in self.state.index:
            return self.state.index.get(record_id)
        logger.warning("tokens for a record never announced", extra={"message_id": record_id})
        return self.state.refresh(record_id)

    def _row(self, record_id: str) -> MessageItem | None:
        """The row the view shows for a record of this turn (``None``: hidden from it)."""
        if self.row_for is None:
            return self.state.item(record_id)
        return self.row_for(record_id)

    def _present(self, record_id: str, status: Status) -> None:
        """Show a saved (not streaming) record's row as it is now: update it, or add it if the
        filter hid it until now (a reply whose audience is only known when it is complete)."""
        row = self._row(record_id)
        if row is None:
            return
        if record_id in self._hidden:
            self._hidden.discard(record_id)
            self.view.start_message(row)
        self.view.finish_message(record_id, status)
        self.view.update_item(row)

    def _record_saved(self, event: RecordSaved) -> None:
        record = event.record
        if record.id not in self._shown:
            self._show_new(record)
            return
        self.tree.update_record(record)
        if record.status != MessageStatus.STREAMING:
            self._present(record.id, as_status(record.status.value))

    def _draft(self, event: AnswerDraft) -> None:
        """A reply streaming as a draft: its badge says how the draft stands; a withdrawn draft
        (rejected, or replaced by the settled answer) leaves the view, and what streams next
        takes its place."""
        record = event.record
        if record.id not in self._shown:
            self._show_new(record)
            return
        if event.withdrawn:
            self._streamed.pop(record.id, None)
        row = self._row(record.id)
        if row is None or record.id in self._hidden:
            return
        row = replace(row, content=self.streamed(record.id), reasoning=self.reasoned(record.id))
        if event.withdrawn:
            self.view.start_message(row)  # the same entry, emptied, streaming again
        else:
            self.view.update_item(row)

    def _failed(self, event: RunError) -> None:
        """Show the failure the runtime wrote: the reply it marked (status error, the
        sentence in its meta) as the event carries it, or, before any reply existed, the
        sentence under the last message (in the view only)."""
        sentence = event.error.user_message
        self.outcome.status = "error"
        self.outcome.error = sentence
        record = event.record
        if record is not None:
            reply_id = record.id
            if reply_id not in self._shown:
                self._show_new(record)
            else:
                self.tree.update_record(record)
            if reply_id in self._hidden:  # an error shows in every view
                self._hidden.discard(reply_id)
                self.view.start_message(self.state.item(reply_id))
            self.view.finish_message(reply_id, "error")
            self.view.update_item(self.state.item(reply_id))
            self.outcome.leaf_id = reply_id
        elif self.state.leaf_id is not None:
            self._error_under(self.state.leaf_id, sentence)
        self.header.busy = ""

    def _error_under(self, message_id: str, sentence: str) -> None:
        """Show ``sentence`` under a message in the view only (no reply record exists)."""
        self.view.update_item(replace(self.state.item(message_id), status="error", error=sentence))

    def _finished(self, event: RunFinished) -> None:
        self.outcome.status = event.status
        self.outcome.leaf_id = event.leaf_id
        self.outcome.paused = event.paused
        for record_id in dict.fromkeys([*self.outcome.reply_ids, *event.record_ids]):
            if record_id not in self.state.index:  # never announced: nothing to show it from
                logger.warning("turn record not announced", extra={"message_id": record_id})
                continue
            record = self.state.index.get(record_id)  # as the turn's last event left it
            self.tree.update_record(record)
            if record_id not in self._shown:
                self._show_new(record)
                continue
            status = as_status(record.status.value)
            if status == "streaming":
                status = event.status
            self._present(record_id, status)
        usage = event.usage or self._usage
        self.tools.set_usage(usage, event.latency_ms or None)
        self.header.busy = ""
