"""``ask --json``: a turn's events as one JSON object per line on stdout, for scripts.

Every line is an object with ``"event"`` naming its kind; the keys of each kind are stable
(new keys may be added, none renamed or removed):

- ``stored``: ``conversation_id``, ``title``, ``message`` (the user's record)
- ``started``: ``conversation_id``, ``user_message_id``, ``reply`` (the reply's record as it
  starts), ``provider``, ``model``, ``profile``
- ``token``: ``message_id``, ``text``; ``reasoning``: ``message_id``, ``text``
- ``draft``: ``message_id``, ``stage`` (``draft``, ``rejected``, ``checked``, ``unchecked``,
  ``settled``), ``note``
- ``tool_start``: ``call_id``, ``name``, ``args``; ``tool_end``: ``call_id``, ``name``,
  ``output``, ``error`` (``null`` when it ran), ``duration_ms``
- ``stage``: ``node``, ``text``, ``state``
- ``record``: ``message`` (a record as written)
- ``trace``: one line per stage of how a reply was made (a profile that keeps a trace:
  paper-pilot), once per reply, after its first ``record`` line that holds it:
  ``message_id`` (the reply), ``step`` (1, 2, ... in order), ``stage`` (its name:
  ``route``, ``synthesize``, ``critic`` ...), ``model`` (the model its calls asked, several
  comma-separated; ``null`` for a stage that asked none), ``ms`` (its time), ``facts`` (an
  object: the rest the trace holds of it, queries, what was found, verdicts). It is not
  called ``stage``: that is the live progress line above.
- ``error``: ``message`` (one sentence), ``code``, ``record`` (the reply it marks, or ``null``)
- ``finished``: ``status`` (``complete`` or ``cancelled``), ``leaf_id``, ``record_ids``,
  ``paused``, ``usage``

A record is ``{"id", "parent_id", "role", "status", "content", "sender"}``; ``usage`` is
``{"input_tokens", "output_tokens", "total_tokens", "cached_tokens", "reasoning_tokens",
"cost"}`` (a detail the provider did not report is ``null``) or ``null``.

``ask --json --quiet`` prints only one object at the end, ``"event": "result"``:
``status`` (``complete``, ``cancelled``, ``error``), ``reply`` (the reply's text), ``error``
(the sentence, or ``null``), ``conversation_id``, ``user_message_id``, ``reply_id``, ``usage``,
``trace`` (the reply's ``trace`` lines without ``event``, ``[]`` when it has none).
Strings are JSON-escaped (``ensure_ascii``), so no line carries a control character.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from agents.runtime.events import RunEvent, Usage
    from storage.models import MessageRecord


def record_json(record: MessageRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "id": record.id,
        "parent_id": record.parent_id,
        "role": record.role,
        "status": getattr(record.status, "value", record.status),
        "content": record.content,
        "sender": record.meta.get("sender"),
    }


def usage_json(usage: Usage | None) -> dict[str, Any] | None:
    return None if usage is None else dataclasses.asdict(usage)


StagesOf = Callable[[Mapping[str, Any]], Sequence[Mapping[str, Any]]]
"""A reply's meta -> the stages of its trace (the profile's ``reply_stages`` trait)."""
_STAGE_KEYS = ("stage", "ms", "model")


def trace_json(record: MessageRecord, stages_of: StagesOf | None) -> list[dict[str, Any]]:
    """The ``trace`` lines of a reply: one per stage of its trace, in order (none for a record
    that is not a reply, or a profile that keeps no trace)."""
    if stages_of is None or record.role != "assistant":
        return []
    lines = []
    for step, stage in enumerate(stages_of(record.meta), 1):
        ms = stage.get("ms")
        model = stage.get("model")
        lines.append(
            {
                "event": "trace",
                "message_id": record.id,
                "step": step,
                "stage": str(stage.get("stage") or ""),
                "model": model if isinstance(model, str) and model else None,
                "ms": ms if isinstance(ms, int | float) and not isinstance(ms, bool) else None,
                "facts": {k: v for k, v in stage.items() if k not in _STAGE_KEYS},
            }
        )
    return lines


def event_json(event: RunEvent) -> dict[str, Any] | None:
    """The line of ``event`` (``None`` for an event scripts are not told about)."""
    from agents.runtime import events as ev

    if isinstance(event, ev.MessageStored):
        return {
            "event": "stored",
            "conversation_id": event.conversation.id,
            "title": event.conversation.title,
            "message": record_json(event.record),
        }
    if isinstance(event, ev.TurnStarted):
        return {
            "event": "started",
            "conversation_id": event.conversation_id,
            "user_message_id": event.user_message_id,
            "reply": record_json(event.reply),
            "provider": event.provider,
            "model": event.model,
            "profile": event.profile,
        }
    if isinstance(event, ev.TokenDelta):
        return {"event": "token", "message_id": event.message_id, "text": event.text}
    if isinstance(event, ev.ReasoningDelta):
        return {"event": "reasoning", "message_id": event.message_id, "text": event.text}
    if isinstance(event, ev.AnswerDraft):
        return {
            "event": "draft",
            "message_id": event.record.id,
            "stage": event.stage,
            "note": event.note,
        }
    if isinstance(event, ev.ToolStarted):
        return {
            "event": "tool_start",
            "call_id": event.call_id,
            "name": event.name,
            "args": event.args,
        }
    if isinstance(event, ev.ToolFinished):
        return {
            "event": "tool_end",
            "call_id": event.call_id,
            "name": event.name,
            "output": event.output,
            "error": event.error,
            "duration_ms": round(event.duration_ms, 1),
        }
    if isinstance(event, ev.NodeStatus):
        return {"event": "stage", "node": event.node, "text": event.text, "state": event.state}
    if isinstance(event, ev.RecordSaved):
        return {"event": "record", "message": record_json(event.record)}
    if isinstance(event, ev.RunError):
        return {
            "event": "error",
            "message": event.error.user_message,
            "code": event.error.code,
            "record": record_json(event.record),
        }
    if isinstance(event, ev.RunFinished):
        return {
            "event": "finished",
            "status": event.status,
            "leaf_id": event.leaf_id,
            "record_ids": list(event.record_ids),
            "paused": event.paused,
            "usage": usage_json(event.usage),
        }
    return None


class JsonEventPrinter:
    """Prints each event as a line (or, ``quiet``, only the result at the end) and keeps what
    ``ask`` needs to end: the error, whether it was cancelled, the usage."""

    def __init__(
        self, out: TextIO, *, quiet: bool = False, stages_of: StagesOf | None = None
    ) -> None:
        self.out, self.quiet, self.stages_of = out, quiet, stages_of
        self.traces: dict[str, list[dict[str, Any]]] = {}
        self.error: str | None = None
        self.cancelled = False
        self.review_waiting = False
        self.usage: Usage | None = None
        self.user_message_id: str | None = None
        self.conversation_id: str | None = None
        self.reply_id: str | None = None
        self.replies: dict[str, str] = {}

    def show(self, event: RunEvent) -> None:
        from agents.runtime import events as ev

        if isinstance(event, ev.MessageStored):
            self.conversation_id, self.user_message_id = event.conversation.id, event.record.id
        elif isinstance(event, ev.TurnStarted):
            self.reply_id = event.reply.id
            self.replies[event.reply.id] = event.reply.content
        elif isinstance(event, ev.TokenDelta):
            self.replies[event.message_id] = self.replies.get(event.message_id, "") + event.text
        elif isinstance(event, ev.RecordSaved) and event.record.role == "assistant":
            self.reply_id = event.record.id
            self.replies[event.record.id] = event.record.content
        elif isinstance(event, ev.RunError):
            self.error = event.error.user_message
        elif isinstance(event, ev.RunFinished):
            self.cancelled = event.status == "cancelled"
            self.review_waiting = event.paused
            self.usage = event.usage
        traced: list[dict[str, Any]] = []
        # A reply is saved more than once (its usage, its status): its trace is told once.
        told = isinstance(event, ev.RecordSaved) and event.record.id in self.traces
        if isinstance(event, ev.RecordSaved) and not told:
            traced = trace_json(event.record, self.stages_of)
        if traced and isinstance(event, ev.RecordSaved):
            self.traces[event.record.id] = traced
        if not self.quiet and (line := event_json(event)) is not None:
            self._write(line)
            for trace_line in traced:
                self._write(trace_line)

    def finish(self) -> None:
        """The result line of ``--quiet`` (nothing otherwise: ``finished`` said it)."""
        if not self.quiet:
            return
        status = "error" if self.error else ("cancelled" if self.cancelled else "complete")
        self._write(
            {
                "event": "result",
                "status": status,
                "reply": self.replies.get(self.reply_id or "", ""),
                "error": self.error,
                "conversation_id": self.conversation_id,
                "user_message_id": self.user_message_id,
                "reply_id": self.reply_id,
                "usage": usage_json(self.usage),
                "trace": [
                    {k: v for k, v in line.items() if k != "event"}
                    for line in self.traces.get(self.reply_id or "", [])
                ],
            }
        )

    def _write(self, line: dict[str, Any]) -> None:
        self.out.write(json.dumps(line, ensure_ascii=True, default=str) + "\n")
        self.out.flush()
