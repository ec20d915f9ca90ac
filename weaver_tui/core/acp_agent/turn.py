"""One ``session/prompt``: the runtime's turn streamed to the client, reviews asked as
permissions, until the turn ends.

The turn goes through :meth:`AgentRuntime.send` (the runtime stores the user message and every
record, as for any front end). A turn that pauses on a proposed patch asks the client; its
answer resumes the turn (:meth:`AgentRuntime.resume_turn`), which may pause again on the next
patch. A turn that pauses on the mediator's consent question asks it as a form, where the
client shows forms (:mod:`~weaver_tui.core.acp_agent.consent_elicitation`), and resumes
once it is answered. ``session/cancel`` stops the turn (its partial reply is kept, marked
cancelled) or withdraws a pending question (the patch then stays pending for the app to
review; a consent question stays unanswered, and nothing is posted).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from acp import update_agent_thought_text
from acp.helpers import SessionUpdate
from acp.schema import (
    AllowedOutcome,
    ElicitationFormSessionMode,
    PermissionOption,
    PromptResponse,
    RequestPermissionResponse,
    StopReason,
    ToolCallUpdate,
)

from agents.graph.approval import approval_value
from agents.patch_review.review import PendingReview, find_pending_review, resume_value
from agents.pending_interrupt import pending_at_leaf
from agents.runtime import events as ev
from agents.shared_space.consent import consent_of
from storage.consents import ConsentRequest
from storage.printable import printable
from weaver_tui.core.acp_agent.consent_answers import PROMPT_CANCELLED, ask_in_person
from weaver_tui.core.acp_agent.consent_elicitation import consent_message, consent_schema
from weaver_tui.core.acp_agent.failures import marked_stop_reason, marked_updates, turn_failure
from weaver_tui.core.acp_agent.patch_permission import (
    PERMISSION_OPTIONS,
    applied_update,
    base_text,
    decision_of,
    patch_file,
    review_request,
)
from weaver_tui.core.acp_agent.tool_permission import (
    APPROVAL_OPTIONS,
    approval_decision,
    approval_request,
    pending_approval,
)
from weaver_tui.core.acp_agent.turn_report import prompt_usage
from weaver_tui.core.acp_agent.turn_updates import TurnUpdates

if TYPE_CHECKING:
    from acp.interfaces import Client

    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime
    from agents.runtime.user_message import NewMessage
    from weaver_tui.core.acp_agent.sessions import AcpSession

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class _Applying:
    """A patch being decided: the tool call that proposed it, its file, the file's text before
    the decision."""

    review: PendingReview
    call_id: str
    path: Path
    old_text: str | None


class AcpTurn:
    """Streams one prompt's turn (and its resumed parts) to the client."""

    def __init__(
        self,
        client: Client,
        session: AcpSession,
        runtime: AgentRuntime,
        model: ChatModelHandle,
        updates: TurnUpdates,
        *,
        elicits: bool = False,
    ) -> None:
        self.client = client
        self.elicits = elicits
        """Whether the client shows forms: a consent question is then asked of its user."""
        self.session = session
        self.runtime = runtime
        self.model = model
        self.updates = updates
        self.cancel = session.cancel or asyncio.Event()
        self.stop_reason: StopReason | None = None
        """How a turn that ended marked stopped (``max_tokens``, ``refusal``)."""
        self.leaf_id: str | None = None
        """The last record the turn stored (the user message, then the turn's leaf)."""
        self.usage: ev.Usage | None = None
        """The tokens (and cost) the turn's model calls reported, over its resumed parts."""

    async def run(self, message: NewMessage) -> PromptResponse:
        events = self.runtime.send(
            message,
            model=self.model,
            cancel=self.cancel,
            project_root=self.session.cwd,
            session_tools=self._session_tools(),
            consent_in_person=self.elicits,
        )
        finished = await self._forward(events)
        while finished.paused and finished.status == "complete":
            review = find_pending_review(
                self.runtime.store, self._conversation_id(), finished.leaf_id
            )
            applying = self._applying(review) if review is not None else None
            consent = pending_at_leaf(
                self.runtime.store, self._conversation_id(), finished.leaf_id, consent_of
            )
            if applying is not None:
                asked = await self._ask(applying)
            elif consent is not None and self.elicits:
                asked = await self._consent(*consent)
            else:
                asked = await self._approve(finished.leaf_id)
            if asked is None:
                finished = ev.RunFinished("cancelled", finished.leaf_id)
                break
            record_id, value = asked
            events = self.runtime.resume_turn(
                conversation_id=self._conversation_id(),
                record_id=record_id,
                value=value,
                model=self.model,
                cancel=self.cancel,
                session_tools=self._session_tools(),
                consent_in_person=self.elicits,
            )
            finished = await self._forward(events, applying)
        for update in self.updates.finish_plan():
            await self._send(update)
        usage = prompt_usage(self.usage)
        if self.stop_reason is not None:
            return PromptResponse(stop_reason=self.stop_reason, usage=usage)
        return PromptResponse(
            stop_reason="cancelled" if finished.status == "cancelled" else "end_turn",
            usage=usage,
        )

    def _session_tools(self) -> list[Any]:
        """The tools of the MCP servers the client brought with the session."""
        toolset = self.session.toolset
        return list(toolset.tools) if toolset is not None else []

    def _conversation_id(self) -> str:
        assert self.session.conversation_id is not None  # set by MessageStored
        return self.session.conversation_id

    def _track(self, event: ev.RunEvent) -> None:
        """Keep what the turn is at: its conversation, its last record, its usage."""
        if isinstance(event, ev.MessageStored):
            self.session.conversation_id = event.conversation.id
            self.leaf_id = event.record.id
        elif isinstance(event, ev.RunError) and event.record is not None:
            self.leaf_id = event.record.id
        elif isinstance(event, ev.RunFinished):
            self.leaf_id = event.leaf_id or self.leaf_id
            if event.usage is not None:
                self.usage = event.usage if self.usage is None else self.usage.plus(event.usage)

    async def _forward(
        self, events: AsyncGenerator[ev.RunEvent, None], applying: _Applying | None = None
    ) -> ev.RunFinished:
        """Send the events' updates; return how the turn ended, or raise its failure."""
        finished: ev.RunFinished | None = None
        try:
            async for event in events:
                self._track(event)
                if isinstance(event, ev.RunError):
                    for update in self.updates.finish_plan():
                        await self._send(update)
                    stop = marked_stop_reason(event.error)
                    if stop is None:
                        raise turn_failure(event.error.user_message, event.error.code)
                    for update in marked_updates(event):
                        await self._send(update)
                    self.stop_reason = stop
                    finished = ev.RunFinished("complete", event.record.id if event.record else "")
                    break
                elif isinstance(event, ev.RunFinished):
                    finished = event
                for update in self.updates.updates(event):
                    await self._send(update)
                if applying is not None and self._applied(event, applying):
                    await self._send(
                        applied_update(
                            applying.call_id,
                            applying.path,
                            applying.old_text,
                            applying.review.patch,
                        )
                    )
        finally:
            await events.aclose()  # the turn lock is released when the turn's generator ends
        if finished is None:
            raise turn_failure("The turn ended without a result; send the message again.")
        return finished

    def _applied(self, event: ev.RunEvent, applying: _Applying) -> bool:
        """The settled result of the reviewed call (written in place of "waiting for review")
        is a patch the store records as accepted here (a record's own status is data)."""
        if not isinstance(event, ev.RecordSaved) or event.record.role != "tool":
            return False
        record = event.record
        return record.meta.get("tool_call_id") == applying.call_id and bool(
            self.runtime.store.accepted_patches([record.id])
        )

    def _applying(self, review: PendingReview) -> _Applying:
        path = patch_file(self.session.cwd, review.patch)
        call_id = review.patch.tool_call_id or review.record_id
        return _Applying(review, call_id, path, base_text(self.session.cwd, review.patch))

    async def _ask(self, applying: _Applying) -> tuple[str, Any] | None:
        """The user's decision on the patch (the record to resume and the value), ``None``
        when the prompt was cancelled first."""
        patch = applying.review.patch
        answer = await self._permission(
            review_request(self.session.cwd, patch, applying.call_id), PERMISSION_OPTIONS
        )
        decision = decision_of(answer) if answer is not None else None
        logger.info(
            "patch reviewed over ACP", extra={"patch": patch.id, "decision": decision or "none"}
        )
        return None if decision is None else (applying.review.record_id, resume_value(decision))

    async def _approve(self, leaf_id: str) -> tuple[str, Any] | None:
        """The user's approval of a tool call the turn paused on (``None``: cancelled)."""
        pending = pending_approval(self.runtime.store, leaf_id)
        if pending is None:
            raise turn_failure(
                "The turn paused on a question this editor cannot show: open the conversation "
                "in the app (weaver-tui --conversation ID) to answer it.",
                "paused",
            )
        record_id, question = pending
        answer = await self._permission(approval_request(question), APPROVAL_OPTIONS)
        outcome: Any = answer.outcome if answer is not None else None
        if not isinstance(outcome, AllowedOutcome):
            return None
        return record_id, approval_value(approval_decision(outcome.option_id))

    async def _consent(self, record_id: str, call_id: str) -> tuple[str, Any] | None:
        """Ask the user the consent questions of ``call_id`` that wait for a participant with
        no seat, and keep each answer (``None``: the prompt was cancelled first)."""
        answered = await ask_in_person(self.runtime.store, call_id, self._form)
        if answered is None:
            return None
        for why in answered.refusals:
            await self._send(update_agent_thought_text(printable(why)))
        if answered.still_waiting:  # a participant with a seat answers only at their seat
            raise turn_failure(
                "The turn waits for a participant to allow a post at their seat: open the "
                f"conversation in the app (weaver-tui --conversation {self._conversation_id()}) "
                "to follow it.",
                "paused",
            )
        return record_id, {"kind": "consent", "answered": True}

    async def _form(self, request: ConsentRequest) -> Any:
        """The client's response to one consent form (whatever it sent, an error included), or
        ``PROMPT_CANCELLED`` when the prompt was cancelled first."""
        try:
            response = await self._until_cancelled(
                self.client.create_elicitation(
                    message=consent_message(request),
                    mode=ElicitationFormSessionMode(
                        session_id=self.session.id,
                        requested_schema=consent_schema(),
                    ),
                )
            )
        except Exception as exc:  # noqa: BLE001 (any failed or malformed answer is a refusal)
            logger.info("consent form not answered", extra={"error": type(exc).__name__})
            return exc
        return PROMPT_CANCELLED if response is None else response

    async def _permission(
        self, tool_call: ToolCallUpdate, options: list[PermissionOption]
    ) -> RequestPermissionResponse | None:
        """Ask the client; ``None`` when the prompt is cancelled before it answers."""
        return await self._until_cancelled(
            self.client.request_permission(
                session_id=self.session.id, tool_call=tool_call, options=options
            )
        )

    async def _until_cancelled(self, asking: Awaitable[T]) -> T | None:
        """What ``asking`` returns, or ``None`` when the prompt is cancelled first (the
        question is then withdrawn)."""
        question = asyncio.ensure_future(asking)
        cancelled = asyncio.ensure_future(self.cancel.wait())
        try:
            await asyncio.wait({question, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
        if not question.done():
            question.cancel()
            return None
        return question.result()

    async def _send(self, update: SessionUpdate) -> None:
        update_: Any = update
        await self.client.session_update(session_id=self.session.id, update=update_)
