"""What a server needs to find in a request's tool rounds, added where the payload is built.

``ChatOpenAI`` turns the conversation into the request's ``messages`` from the OpenAI fields
alone. Servers ask for more, and the stored conversation (which may have started on another
provider) is never rewritten to suit one of them; :func:`mend_messages` mends the payload:

- **Every tool call and tool message carries an id**, consistent within the request: a call
  stored without one gets one of ours, and a tool message without one answers the first
  unanswered call of the assistant message before it.
- **Ids the server accepts.** A server that takes only its own format (Mistral: 9 letters or
  digits, :class:`agents.providers.presets.ToolCallIds`) gets each stored id mapped to an
  accepted one, derived from it, the same in the assistant's ``tool_calls[].id`` and the tool
  message's ``tool_call_id``. Every call's id is distinct in the request: a stored id seen
  again in a later round (two providers' counters can give the same ``call_0``) is sent as a
  new one, and each tool message answers the open call with its stored id, else the first
  open one.
- **Tool messages carry ``name``** (Mistral refuses them without; langchain-openai strips it):
  the tool message's own name, else the name of the call it answers.
- **What the server attached to its calls** (Gemini's thought signatures in
  ``extra_content``), back on those calls, for a server that needs them.
- **Reasoning back in the field it came in** (``reasoning_content``, ``reasoning`` or
  ``reasoning_details``), for the assistant messages with tool calls, when the server needs it.

Guarantee (checked with generated histories in ``tests/providers/test_request_mend.py``): after
mending, every assistant call has a non-empty id unique in the request, every tool message's
``tool_call_id`` names a call before it, each accepted by the server's format when it has one,
and every tool message has a ``name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from agents.providers.presets import CALL_EXTRA_FIELDS, ToolCallIds
from agents.providers.thinking import REASONING_KEY
from agents.providers.wire_normalizer import (
    CALL_EXTRAS_KEY,
    DETAILS_KEY,
    REASONING_FIELD_KEY,
    join_details,
)


class _Ids:
    """The request's ids: every call's sent id distinct, each derived from its stored id."""

    def __init__(self, ids: ToolCallIds | None) -> None:
        self.format = ids
        self.sent: dict[str, str] = {}
        self.used: set[str] = set()

    def for_call(self, stored: Any, seed: str) -> str:
        """The id sent for a call stored as ``stored`` (``seed`` names its place): the stored
        one when the server takes it and no earlier call of the request has it, else one
        derived from it (and the place, for a missing or repeated one)."""
        has_id = isinstance(stored, str) and bool(stored)
        fresh = has_id and stored not in self.sent
        base = stored if fresh else f"{stored if has_id else ''}@{seed}"
        candidate = base if fresh and self._accepts(base) else self._make(base)
        salt = 0
        while candidate in self.used:
            salt += 1
            candidate = self._make(f"{base}#{salt}")
        self.used.add(candidate)
        if has_id:
            self.sent[stored] = candidate
        return candidate

    def _accepts(self, call_id: str) -> bool:
        return self.format.accepts(call_id) if self.format is not None else True

    def _make(self, seed: str) -> str:
        if self.format is not None:
            return self.format.make(seed)
        return "call_" + ToolCallIds(length=12).make(seed)


def reasoning_fields(original: AIMessage, learnt: str | None) -> dict[str, Any]:
    """The fields that carry ``original``'s reasoning back: the field it came in (else
    ``reasoning_content``) and the one a server's 400 named, if another."""
    kwargs = original.additional_kwargs
    text = kwargs.get(REASONING_KEY)
    text = text if isinstance(text, str) else ""
    own = kwargs.get(REASONING_FIELD_KEY)
    fields = {own if isinstance(own, str) and own else "reasoning_content"}
    if learnt:
        fields.add(learnt)
    out: dict[str, Any] = {}
    for field in sorted(fields):
        if field == "reasoning_details":
            details = kwargs.get(DETAILS_KEY)
            if isinstance(details, list) and details:
                out[field] = join_details(details)
            else:
                out[field] = [{"type": "reasoning.text", "text": text}] if text else []
        else:
            out[field] = text
    return out


def mend_messages(
    sent: list[dict[str, Any]],
    originals: Sequence[BaseMessage],
    *,
    ids: ToolCallIds | None = None,
    reasoning_back: bool = False,
    learnt_field: str | None = None,
    call_extras: bool = False,
) -> None:
    """Mend the request's ``sent`` messages in place (see the module); ``originals`` are the
    messages they were built from, one for one."""
    id_map = _Ids(ids)
    names: dict[str, str] = {}
    pending: list[tuple[Any, str]] = []
    """The last assistant message's calls not answered yet: (stored id, sent id)."""
    for index, message in enumerate(sent):
        role = message.get("role")
        original = originals[index] if index < len(originals) else None
        if role == "assistant" and message.get("tool_calls"):
            pending = []
            kept = (
                original.additional_kwargs.get(CALL_EXTRAS_KEY)
                if call_extras and isinstance(original, AIMessage)
                else None
            )
            extras = kept if isinstance(kept, dict) else {}
            for position, call in enumerate(message["tool_calls"]):
                stored = call.get("id")
                attached = extras.get(stored) if isinstance(stored, str) else None
                if isinstance(attached, dict):
                    call.update({f: attached[f] for f in CALL_EXTRA_FIELDS if f in attached})
                call_id = id_map.for_call(stored, f"{index}:{position}")
                call["id"] = call_id
                function = call.get("function")
                name = function.get("name") if isinstance(function, dict) else None
                if isinstance(name, str) and name:
                    names[call_id] = name
                pending.append((stored, call_id))
            if reasoning_back and isinstance(original, AIMessage):
                message.update(reasoning_fields(original, learnt_field))
        elif role == "tool":
            stored = message.get("tool_call_id")
            answered = next((p for p in pending if p[0] == stored), None)
            if answered is None and pending and (not stored or stored not in id_map.sent):
                answered = pending[0]  # no id, or one no call has: the first open call
            if answered is not None:
                pending.remove(answered)
                call_id = answered[1]
            else:
                known = id_map.sent.get(stored) if isinstance(stored, str) else None
                call_id = known or id_map.for_call(stored, f"tool:{index}")
            message["tool_call_id"] = call_id
            own = original.name if isinstance(original, ToolMessage) else None
            name = own or names.get(call_id)
            if name:
                message["name"] = name
