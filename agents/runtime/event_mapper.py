"""Maps LangGraph's stream (messages / updates / custom) to RunEvents, writing records on the way.

Only tokens of the answer node (``agent``, or an LLM call tagged ``weaver:answer``) are the
answer stream; tokens of LLM calls inside tools or internal nodes (or tagged ``nostream`` /
``weaver:internal``) are kept out of it. Tool calls come from the agent node's update; tool
starts and finishes from the custom stream of the shared ``ToolNode`` (with a fallback on the
tools node's update for a plain ``ToolNode``); stage lines from ``emit_status`` payloads, a draft's state from ``emit_draft`` payloads
(:mod:`agents.graph.draft`): a reply written as a draft is replaced, when its node hands back
the settled answer, by that answer whole.

A thinking model's reasoning becomes ``ReasoningDelta`` events, never answer text: what the
server sends apart (``additional_kwargs[REASONING_KEY]``) and a ``<think>`` block at the start
of the reply's text (split off as it streams by :class:`agents.providers.thinking.ThinkSplitter`). The
reply record keeps only the answer as its content and the reasoning in ``meta["reasoning"]``.

Every piece of a reply's answer and reasoning is let out through the reply's
:class:`agents.runtime.secret_holdback.SecretHoldback` (and a tool's output without the keys
this process uses), so no event carries a key, however the stream splits it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any, cast

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from agents.graph.agent_node import ANSWER_NODE
from agents.graph.draft import ANSWER_TAG, DRAFT_KEY
from agents.graph.status import STATUS_KEY
from agents.graph.steering import STEER_EVENT_KEY, STEER_META_KEY
from agents.graph.tool_node import TOOL_EVENT_KEY, message_text, record_meta_of
from agents.providers.thinking import REASONING_KEY, ThinkSplitter, split_thinking
from agents.providers.wire_normalizer import reasoning_meta
from agents.runtime.events import (
    AnswerDraft,
    DraftStage,
    NodeStatus,
    ReasoningDelta,
    RecordSaved,
    RunEvent,
    TokenDelta,
    ToolFinished,
    ToolStarted,
    Usage,
)
from agents.runtime.recorder import TurnRecorder
from agents.runtime.secret_holdback import SecretHoldback
from agents.runtime.tool_round import RoundOrder, ToolResult
from agents.runtime.usage_tally import UsageTally, usage_of
from storage.models import MessageStatus
from storage.secrets import without_known_secrets

logger = logging.getLogger(__name__)

__all__ = ["ANSWER_TAG", "TurnEventMapper", "is_answer_token"]

DRAFT_STAGES: frozenset[str] = frozenset({"draft", "rejected", "checked", "unchecked"})
RECORD_META_KEY = "record_meta"
"""An AI message's ``additional_kwargs[RECORD_META_KEY]`` is stored in its reply record's meta
(a profile's trace, its sources, its artifacts); it is never sent to a model."""
INTERNAL_TAGS = frozenset({"nostream", "weaver:internal"})


def is_answer_token(metadata: Mapping[str, Any]) -> bool:
    """Called once per streamed token, so it builds nothing (no set of the tags per call)."""
    tags = metadata.get("tags") or ()
    if any(tag in INTERNAL_TAGS for tag in tags):
        return False
    return metadata.get("langgraph_node") == ANSWER_NODE or ANSWER_TAG in tags


def tool_calls_meta(message: AIMessage) -> list[dict[str, Any]]:
    """A reply's tool calls as its record keeps them; a call with broken arguments keeps
    them as they came (``broken_args``) with empty ``args``, so the next turn resends it as
    it was, beside the error that answered it."""
    calls = [{"id": c["id"], "name": c["name"], "args": c["args"]} for c in message.tool_calls]
    for c in message.invalid_tool_calls:
        name = c.get("name") or "tool"
        calls.append({"id": c.get("id"), "name": name, "args": {}, "broken_args": c.get("args")})
    return calls


class TurnEventMapper:
    """Turns ``(mode, payload)`` stream items into events; owns the turn's bookkeeping."""

    def __init__(self, recorder: TurnRecorder, tally: UsageTally | None = None) -> None:
        self.recorder = recorder
        self.tally = tally or UsageTally()
        """Every model call of the turn (internal stages too), when attached to the run."""
        self._replies_usage = Usage(0, 0, 0)
        self._replies_have_usage = False
        self.interrupted: Any = None
        self._tool_names: dict[str, str] = {}
        self._seen: set[str] = set()
        self._splitter = ThinkSplitter()
        self._split_reply: str | None = None
        """The reply ``_splitter`` reads (a new reply gets a new splitter)."""
        self._draft_reply: str | None = None
        """The reply streaming as a draft, until its settled answer arrives."""
        self._round = RoundOrder()
        """The tool round's results, stored in call order (:mod:`agents.runtime.tool_round`)."""
        self._answer_hold = SecretHoldback()
        self._reasoning_hold = SecretHoldback()
        self._hold_reply: str | None = None
        """The reply the two holdbacks read (a new reply gets new ones)."""

    @property
    def usage(self) -> Usage:
        """The turn's usage: the sum over its model calls, else over its replies."""
        return self.tally.usage if self.tally.calls else self._replies_usage

    @property
    def has_usage(self) -> bool:
        return bool(self.tally.calls) or self._replies_have_usage

    def handle(self, mode: str, payload: Any) -> Iterator[RunEvent]:
        if mode == "messages":
            yield from self._on_message(*payload)
        elif mode == "updates":
            yield from self._on_updates(payload)
        elif mode == "custom":
            yield from self._on_custom(payload)

    # -- answer tokens ----------------------------------------------------------------------

    def _ensure_reply(self) -> Iterator[RunEvent]:
        if self.recorder.reply_id is None:
            record = self.recorder.open_reply()
            yield RecordSaved(record)

    def _on_message(self, message: BaseMessage, metadata: Mapping[str, Any]) -> Iterator[RunEvent]:
        if not isinstance(message, AIMessage) or not is_answer_token(metadata):
            return
        text = message_text(message.content)
        sent_apart = (
            message.additional_kwargs.get(REASONING_KEY) if message.additional_kwargs else None
        )
        if not text and not sent_apart:
            return
        if self.recorder.reply_id is None:
            yield from self._ensure_reply()
        splitter = self._reply_splitter()
        if isinstance(sent_apart, str) and sent_apart:
            yield from self._reasoning(sent_apart)
        if text:  # _pieces, written out: this runs once per streamed token
            reasoning, answer = splitter.feed(text)
            if reasoning:
                yield from self._reasoning(reasoning)
            if answer:
                hold = self._answer_hold
                if self._hold_reply != self.recorder.reply_id:
                    hold = self._holds()[0]
                answer = hold.feed(answer)
                if answer:
                    self.recorder.append(answer)
                    yield TokenDelta(self.recorder.reply_id or "", answer)

    def _holds(self) -> tuple[SecretHoldback, SecretHoldback]:
        """The open reply's answer and reasoning holdbacks (new ones for a new reply)."""
        if self._hold_reply != self.recorder.reply_id:
            self._answer_hold, self._reasoning_hold = SecretHoldback(), SecretHoldback()
            self._hold_reply = self.recorder.reply_id
        return self._answer_hold, self._reasoning_hold

    def _reply_splitter(self) -> ThinkSplitter:
        """The open reply's splitter (a fresh one for a reply it has not read yet)."""
        if self._split_reply != self.recorder.reply_id:
            self._splitter = ThinkSplitter()
            self._split_reply = self.recorder.reply_id
        return self._splitter

    def _pieces(self, reasoning: str, answer: str) -> Iterator[RunEvent]:
        if reasoning:
            yield from self._reasoning(reasoning)
        if answer:
            yield from self._answer(self._holds()[0].feed(answer))

    def _answer(self, shown: str) -> Iterator[RunEvent]:
        if shown:
            self.recorder.append(shown)
            yield TokenDelta(self.recorder.reply_id or "", shown)

    def _reasoning(self, text: str) -> Iterator[RunEvent]:
        shown = self._holds()[1].feed(text)
        if shown:
            self.recorder.append_reasoning(shown)
            yield ReasoningDelta(self.recorder.reply_id or "", shown)

    def _release_held(self) -> Iterator[RunEvent]:
        """What the open reply's holdbacks still hold: the start of a key that never went on."""
        answer_hold, reasoning_hold = self._holds()
        reasoning = reasoning_hold.finish()
        if reasoning:
            self.recorder.append_reasoning(reasoning)
            yield ReasoningDelta(self.recorder.reply_id or "", reasoning)
        yield from self._answer(answer_hold.finish())

    def settle_reply(self) -> Iterator[RunEvent]:
        """The open reply's stream ended: what the splitter held back (a tag cut short, an
        unclosed block's end) is its reasoning or answer now."""
        if self.recorder.reply_id is None:
            return
        if self._split_reply == self.recorder.reply_id:
            yield from self._pieces(*self._splitter.finish())
        if self._hold_reply == self.recorder.reply_id:
            yield from self._release_held()

    # -- node updates -----------------------------------------------------------------------

    def _on_updates(self, payload: Mapping[str, Any]) -> Iterator[RunEvent]:
        for node, update in payload.items():
            if node == "__interrupt__":
                self.interrupted = update
                continue
            if not isinstance(update, Mapping):
                continue
            messages = update.get("messages") or []
            if isinstance(messages, BaseMessage):
                messages = [messages]
            for message in messages:
                if message.id is not None:
                    if message.id in self._seen:
                        continue  # a node that hands back messages it already returned
                    self._seen.add(message.id)
                if isinstance(message, AIMessage):
                    yield from self._on_ai_message(message)
                elif isinstance(message, ToolMessage):
                    yield from self._on_tool_message(message)

    def _on_ai_message(self, message: AIMessage) -> Iterator[RunEvent]:
        yield from self.flush_tool_results()  # the round before this reply is over
        inline, text = split_thinking(message_text(message.content))
        sent_apart = message.additional_kwargs.get(REASONING_KEY)
        reasoning = (sent_apart if isinstance(sent_apart, str) else "") + inline
        if self.recorder.reply_id is None and not text and not reasoning and not message.tool_calls:
            return
        yield from self._ensure_reply()
        yield from self.settle_reply()
        if self._draft_reply is not None and self._draft_reply == self.recorder.reply_id:
            yield self._draft_event("settled", "", withdrawn=True)  # the answer, whole, follows
        streamed = self.recorder.reasoning
        if reasoning.startswith(streamed) and len(reasoning) > len(streamed):
            yield from self._reasoning(reasoning[len(streamed) :])
        streamed = self.recorder.text
        if text.startswith(streamed) and len(text) > len(streamed):
            # Content that did not arrive as tokens (a non-streaming model or node).
            yield from self._answer(self._holds()[0].feed(text[len(streamed) :]))
        yield from self._release_held()
        meta: dict[str, Any] = {"reasoning": reasoning} if reasoning else {}
        meta.update(reasoning_meta(message.additional_kwargs))
        usage = usage_of(message)
        if usage is not None:
            self._replies_have_usage = True
            self._replies_usage = self._replies_usage.plus(usage)
            meta["usage"] = usage.as_meta()
        record_meta = message.additional_kwargs.get(RECORD_META_KEY)
        if isinstance(record_meta, Mapping):
            meta.update(record_meta)  # what the node that wrote the reply asked to keep with it
        if message.tool_calls or message.invalid_tool_calls:
            meta["tool_calls"] = tool_calls_meta(message)
            self._tool_names.update({c["id"]: c["name"] for c in meta["tool_calls"] if c["id"]})
            self._round.start([str(c["id"]) for c in meta["tool_calls"] if c["id"]])
        record = self.recorder.close_reply(MessageStatus.COMPLETE, content=text, meta=meta)
        yield RecordSaved(record)

    def _on_tool_message(self, message: ToolMessage) -> Iterator[RunEvent]:
        if self._known(message.tool_call_id):
            return
        output = message_text(message.content)
        error = output if message.status == "error" else None
        name = message.name or self._tool_names.get(message.tool_call_id, "tool")
        yield from self._tool_finished(
            message.tool_call_id, name, output, error, None, record_meta_of(message)
        )

    def _tool_finished(
        self,
        call_id: str,
        name: str,
        output: str,
        error: str | None,
        duration_ms: float | None,
        record_meta: dict[str, Any] | None = None,
    ) -> Iterator[RunEvent]:
        """The call finished (the tool pane hears it at once); its record is stored once every
        earlier call of its round has its own."""
        output = without_known_secrets(output)  # a tool may read a file that holds the key
        error = without_known_secrets(error) if error else error
        yield ToolFinished(call_id, name, output, error, duration_ms or 0.0)
        result = ToolResult(call_id, name, output, error, duration_ms, record_meta)
        yield from self._store(self._round.arrive(result))

    def _known(self, call_id: str) -> bool:
        return call_id in self.recorder.recorded_tool_calls or self._round.knows(call_id)

    def _store(self, results: list[ToolResult]) -> Iterator[RunEvent]:
        for r in results:
            record = self.recorder.add_tool_result(
                r.call_id,
                r.name,
                r.output,
                error=r.error,
                duration_ms=r.duration_ms,
                extra_meta=r.record_meta,
            )
            yield RecordSaved(record)

    def flush_tool_results(self) -> Iterator[RunEvent]:
        """Store what the round still holds, in call order (the round is over: a reply
        follows, the turn pauses or ends)."""
        yield from self._store(self._round.drain())

    # -- custom stream ----------------------------------------------------------------------

    def _on_custom(self, payload: Any) -> Iterator[RunEvent]:
        if not isinstance(payload, Mapping):
            return
        phase = payload.get(TOOL_EVENT_KEY)
        if phase == "started":
            yield ToolStarted(payload["call_id"], payload["name"], dict(payload.get("args") or {}))
        elif phase == "finished":
            if self._known(payload["call_id"]):
                return
            yield from self._tool_finished(
                payload["call_id"],
                payload["name"],
                payload.get("output", ""),
                payload.get("error"),
                payload.get("duration_ms"),
                payload.get("record_meta"),
            )
        elif STEER_EVENT_KEY in payload:  # a steer a model call is about to read
            meta = payload.get(STEER_META_KEY)
            text = str(payload[STEER_EVENT_KEY])
            yield from self.flush_tool_results()  # stored below the round it follows
            yield RecordSaved(
                self.recorder.add_steer(text, meta if isinstance(meta, Mapping) else {})
            )
        elif DRAFT_KEY in payload:
            yield from self._on_draft(str(payload[DRAFT_KEY]), str(payload.get("note") or ""))
        elif STATUS_KEY in payload:
            state = payload.get("state", "running")
            if state not in ("running", "done", "error"):
                state = "running"
            yield NodeStatus(str(payload[STATUS_KEY]), str(payload.get("text", "")), state)

    # -- a reply written as a draft ---------------------------------------------------------

    def _on_draft(self, stage: str, note: str) -> Iterator[RunEvent]:
        if stage not in DRAFT_STAGES:
            logger.warning("unknown draft stage", extra={"stage": stage})
            return
        yield from self._ensure_reply()
        withdrawn = stage == "draft" and bool(self.recorder.text)
        self._draft_reply = self.recorder.reply_id
        yield self._draft_event(cast(DraftStage, stage), note, withdrawn=withdrawn)

    def _draft_event(self, stage: DraftStage, note: str, *, withdrawn: bool) -> AnswerDraft:
        """Mark the open reply's draft ``stage`` on its record; ``withdrawn`` takes its text back."""
        reply_id = self.recorder.reply_id
        assert reply_id is not None, "a draft belongs to an open reply"
        if withdrawn:
            self.recorder.withdraw()
            self.recorder.flush()  # the record as written holds no text of the withdrawn draft
            self._split_reply = None  # the next text is read from a fresh start
        if stage == "settled":
            self._draft_reply = None
        check = {"state": stage, "note": note} if stage != "settled" else {}
        record = self.recorder.annotate(reply_id, {"check": check} if check else {})
        return AnswerDraft(record, stage, note, withdrawn)
