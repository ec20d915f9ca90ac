"""The human review of proposed patches: a graph node that pauses, and functions the app calls.

After a tools round that proposed patches, the ``review`` node takes the first unsettled one
and pauses the turn with ``interrupt({"kind": "patch_review", "patch": ...})``. The pause is
a checkpoint in the SQLite checkpointer, so a review pending when the app quits is still
pending when it reopens. The app resumes the turn (``AgentRuntime.resume_turn``) with
:func:`resume_value` (``{"decision": "accept" | "reject"}``); the node then applies or
discards the patch and *replaces* the ``propose_edit`` result (same message id and tool call)
with the outcome, so the model reads "accepted and applied", "rejected" or "conflict" as the
tool's answer and carries on. One patch per node run: the side effect after ``interrupt()``
happens exactly once per decision, and several patches are reviewed one after the other.

In the tree, the settled result is written into the "waiting for review" record itself (the
runtime settles a paused call's result in place: ``TurnRecorder.resume_below``), so a review
adds no version and no branch. The record carries ``patch_id``, ``patch_path`` and
``patch_status`` (``pending``, then ``applied`` / ``rejected`` / ``conflict`` / ``failed``)
in its meta, so the tree can show what became of each patch; an applied one also keeps its
``patch_edit``, which rewind (:mod:`agents.patch_review.rewind`) reverts and re-applies, and
its ``patch_root``, the folder it was accepted in (the only one rewind writes it in).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from langchain_core.messages import AnyMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.errors import WeaverError
from agents.graph import ANSWER_NODE, emit_status
from agents.patch_review import PATCH_ROOT, PROPOSE_EDIT
from agents.patch_review.patches import (
    Patch,
    PatchConflict,
    apply_patch,
    check_patch,
    failure_reason,
    reject_patch,
)
from agents.pending_interrupt import pending_at_leaf
from agents.profile import TurnContext
from storage.store import ConversationStore

logger = logging.getLogger(__name__)

REVIEW_NODE: Final = "review"
INTERRUPT_KIND = "patch_review"
Decision = Literal["accept", "reject"]
ReviewStatus = Literal["applied", "rejected", "conflict", "failed"]


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    """What a decision did: ``status`` and the sentence recorded for the model."""

    patch: Patch
    decision: Decision
    status: ReviewStatus
    message: str

    def as_record(self) -> dict[str, Any]:
        return {
            "patch_id": self.patch.id,
            "path": self.patch.path,
            "decision": self.decision,
            "status": self.status,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class PendingReview:
    """A paused turn waiting for a decision: resume it on ``record_id`` with ``resume_value``."""

    record_id: str
    patch: Patch


def resume_value(decision: Decision, comment: str | None = None) -> dict[str, Any]:
    """The value to resume a paused review with (``AgentRuntime.resume_turn(value=...)``)."""
    if decision not in ("accept", "reject"):
        raise ValueError(f"decision must be 'accept' or 'reject', not {decision!r}")
    value: dict[str, Any] = {"decision": decision}
    if comment:
        value["comment"] = comment
    return value


def settle(root: Path, patch: Patch, decision: Decision) -> ReviewOutcome:
    """Apply (accept) or discard (reject) ``patch``; never raises for expected failures.

    The sentence recorded says what the folder holds: a reject meets a file that already
    holds the patch's text only when something else wrote it (an accept that stopped before
    its outcome was recorded, or the same edit by hand), and then says so instead of "not
    changed"."""
    if decision != "accept":
        sentence = reject_patch(patch)
        try:
            written = check_patch(root, patch)
        except (WeaverError, OSError):
            written = False
        if written:
            sentence = (
                f"The user rejected patch {patch.id} for {patch.path}, but the file already "
                "holds its text (written before this decision); it was left as it is."
            )
        return ReviewOutcome(patch, "reject", "rejected", sentence)
    try:
        return ReviewOutcome(patch, "accept", "applied", apply_patch(root, patch))
    except PatchConflict as err:
        return ReviewOutcome(patch, "accept", "conflict", err.user_message)
    except (WeaverError, OSError) as err:
        reason = failure_reason(err)
        logger.warning("patch %s could not be applied: %s", patch.id, reason)
        return ReviewOutcome(
            patch, "accept", "failed", f"Patch {patch.id} could not be applied: {reason}"
        )


def patch_of_interrupt(value: Any) -> Patch | None:
    """The patch in an interrupt value (or a list of them, as the runtime stores them)."""
    values = value if isinstance(value, list | tuple) else [value]
    for item in values:
        if isinstance(item, Mapping) and item.get("kind") == INTERRUPT_KIND:
            return Patch.from_dict(dict(item["patch"]))
    return None


def find_pending_review(
    store: ConversationStore, conversation_id: str, leaf_id: str | None = None
) -> PendingReview | None:
    """The patch review waiting on the path to ``leaf_id`` (default: the active leaf).

    A user message sent after the pause abandons the review: only a pause at the end of the
    path is offered.
    """
    found = pending_at_leaf(store, conversation_id, leaf_id, patch_of_interrupt)
    return PendingReview(*found) if found is not None else None


def unsettled_patches(messages: Sequence[AnyMessage]) -> list[tuple[ToolMessage, Patch]]:
    """``propose_edit`` results of this turn whose patch has not been reviewed yet."""
    found: list[tuple[ToolMessage, Patch]] = []
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            break
        if (
            isinstance(message, ToolMessage)
            and message.name == PROPOSE_EDIT
            and message.status != "error"
            and isinstance(message.artifact, Mapping)
            and "patch" in message.artifact
            and "review" not in message.artifact
        ):
            found.append((message, Patch.from_dict(dict(message.artifact["patch"]))))
    found.reverse()
    return found


def route_after_tools(state: Mapping[str, Any]) -> Literal["review", "agent"]:
    """Review the next unsettled patch, else give the results back to the agent."""
    return REVIEW_NODE if unsettled_patches(state.get("messages") or []) else ANSWER_NODE


def _decision_of(answer: Any) -> tuple[Decision, str | None]:
    if isinstance(answer, Mapping):
        raw = answer.get("decision")
        comment = answer.get("comment")
    else:
        raw, comment = answer, None
    decision: Decision = "accept" if str(raw).strip().lower() in ("accept", "yes") else "reject"
    return decision, comment if isinstance(comment, str) and comment.strip() else None


async def review_node(
    state: Mapping[str, Any], runtime: Runtime[TurnContext]
) -> dict[str, list[Any]]:
    """Pause for the first unsettled patch, then record the user's decision as its result."""
    message, patch = unsettled_patches(state["messages"])[0]
    emit_status(REVIEW_NODE, f"Waiting for your review of {patch.summary}")
    answer = interrupt({"kind": INTERRUPT_KIND, "patch": patch.to_dict()})
    decision, comment = _decision_of(answer)
    root = Path(runtime.context.project_root)
    outcome = settle(root, patch, decision)
    applied_in = patch.root or os.path.realpath(root)  # noqa: ASYNC240 (no I/O: a legacy patch)
    accepted_in = applied_in if outcome.status == "applied" else None
    text = outcome.message
    if comment:
        text += f" The user's comment: {comment}"
    if outcome.status == "conflict":
        text += f"\nThe stale diff was:\n```diff\n{patch.diff}```"
    else:
        text += f"\n```diff\n{patch.diff}```"
    settled = ToolMessage(
        content=text,
        tool_call_id=message.tool_call_id,
        name=message.name,
        id=message.id,
        status="error" if outcome.status in ("conflict", "failed") else "success",
        artifact={
            "patch": patch.to_dict(),
            "review": outcome.as_record(),
            "record_meta": {
                "patch_id": patch.id,
                "patch_path": patch.path,
                "patch_status": outcome.status,
                "patch_edit": patch.edit if outcome.status == "applied" else None,
                # the folder it was accepted in: rewind writes there and nowhere else
                PATCH_ROOT: accepted_in,
            },
        },
    )
    emit_status(REVIEW_NODE, outcome.message, "error" if settled.status == "error" else "done")
    return {"messages": [settled], "reviews": [outcome.as_record()]}
