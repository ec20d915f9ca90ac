"""A turn's events as ACP session updates: what the tool pane and the message view show.

Answer text becomes ``agent_message_chunk``, reasoning ``agent_thought_chunk``; a reply
written as a draft that a check settles later (``AnswerDraft``) streams as thought chunks, with
a line saying how the check went, and only the settled answer becomes the message, so an
editor never shows a rejected draft as the agent's answer; a tool call is
a ``tool_call`` (in progress) then a ``tool_call_update`` (completed or failed, with its
output), as the tool pane marks a row running, then done or failed. A profile that names its
graph's stages (``ProfileTraits.stages``) gets them as a plan: each stage an entry, in the
order the turn reached them, in progress until its node reports done. Every text passes
through :func:`storage.printable.printable`, as everything the app shows does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, Literal

from acp import (
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
)
from acp.helpers import SessionUpdate
from acp.schema import ToolKind

from agents.patch_review import PROPOSE_EDIT
from agents.providers.retried_call import PROVIDER_STATUS_NODE
from agents.runtime import events as ev
from storage.printable import printable

TOOL_OUTPUT_CHARS = 8_000
"""How much of a tool's output a client is sent (the tree keeps all of it)."""

PlanStatus = Literal["pending", "in_progress", "completed"]


def tool_kind(name: str) -> ToolKind:
    """The ACP kind of a tool: an edit for a proposed patch, ``other`` for the rest."""
    return "edit" if name == PROPOSE_EDIT else "other"


def tool_title(name: str, args: Mapping[str, Any], limit: int = 80) -> str:
    """``read_file(path="src/app.py")``: the tool and its arguments on one short line."""
    shown = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return printable(f"{name}({shown})")


def output_content(text: str) -> list[Any]:
    """A tool's output (or error sentence) as tool-call content, cut to a readable size."""
    if len(text) > TOOL_OUTPUT_CHARS:
        text = text[:TOOL_OUTPUT_CHARS] + "\n… (cut; the whole output is in the conversation)"
    return [tool_content(text_block(printable(text)))]


class TurnUpdates:
    """Maps one turn's events (and a resumed turn's, with the same instance) to updates."""

    def __init__(self, stages: Mapping[str, str]) -> None:
        self.stages = stages
        self.plan: dict[str, PlanStatus] = {}
        """Stage name -> status, in the order the turn reached them."""
        self.drafting: set[str] = set()
        """Replies streaming as a draft (sent as thoughts until settled)."""

    def updates(self, event: ev.RunEvent) -> Iterator[SessionUpdate]:
        if isinstance(event, ev.TokenDelta) and event.text:
            if event.message_id in self.drafting:
                yield update_agent_thought_text(printable(event.text))
            else:
                yield update_agent_message_text(printable(event.text))
        elif isinstance(event, ev.AnswerDraft):
            yield from self._draft(event)
        elif isinstance(event, ev.TurnStarted) and event.reply.content:
            yield update_agent_message_text(printable(event.reply.content))
        elif isinstance(event, ev.ReasoningDelta) and event.text:
            yield update_agent_thought_text(printable(event.text))
        elif isinstance(event, ev.ToolStarted):
            yield start_tool_call(
                event.call_id,
                tool_title(event.name, event.args),
                kind=tool_kind(event.name),
                status="in_progress",
                raw_input=event.args,
            )
        elif isinstance(event, ev.ToolFinished):
            yield update_tool_call(
                event.call_id,
                status="failed" if event.error else "completed",
                content=output_content(event.error or event.output),
            )
        elif isinstance(event, ev.NodeStatus) and event.node in self.stages:
            yield from self._stage(event)
        elif isinstance(event, ev.NodeStatus) and (
            event.state == "error" or event.node == PROVIDER_STATUS_NODE
        ):
            # a problem beside the stages (an MCP server that could not serve), or what the
            # provider made a call do (wait and try again): said aside
            yield update_agent_thought_text(printable(event.text))

    def _draft(self, event: ev.AnswerDraft) -> Iterator[SessionUpdate]:
        if event.stage == "settled":
            self.drafting.discard(event.message_id)
            return
        self.drafting.add(event.message_id)
        note = f": {event.note}" if event.note else ""
        lines = {
            "draft": "\n\n(draft, to be checked)\n\n",
            "rejected": f"\n\n(draft rejected{note})\n\n",
            "checked": "\n\n(draft checked)\n\n",
            "unchecked": f"\n\n(draft unchecked{note})\n\n",
        }
        yield update_agent_thought_text(printable(lines[event.stage]))

    def _stage(self, event: ev.NodeStatus) -> Iterator[SessionUpdate]:
        stage = self.stages.get(event.node)
        if stage is None:
            return
        status: PlanStatus = "in_progress" if event.state == "running" else "completed"
        if self.plan.get(stage) == status:
            return
        for earlier, state in self.plan.items():  # a stage the turn left behind is over
            if state == "in_progress" and earlier != stage:
                self.plan[earlier] = "completed"
        self.plan[stage] = status
        yield self.plan_update()

    def plan_update(self) -> SessionUpdate:
        return update_plan(plan_entry(stage, status=state) for stage, state in self.plan.items())

    def finish_plan(self) -> Iterator[SessionUpdate]:
        """At the end of a turn every stage reached is over: the plan says so once."""
        if any(state != "completed" for state in self.plan.values()):
            self.plan = dict.fromkeys(self.plan, "completed")
            yield self.plan_update()
