"""Every OpenAI-compatible reply, streamed or whole, read the same way before langchain reads it.

Servers that speak "OpenAI-compatible" differ in how they frame a reply. This module is the one
place that turns what any of them sends into the shape ``langchain-openai`` reads, at the level
of the server's JSON (a streamed chunk's ``choices[0].delta``, a completion's
``choices[0].message``):

- **Tool calls** arrive with or without ``index`` (Gemini's endpoint sends none, often several
  complete calls in one chunk), with ids missing or empty, and may end with ``finish_reason:
  "stop"``. langchain-openai reads ``tool_call["index"]`` and drops every call of a chunk that
  lacks one. :class:`StreamNormalizer` gives each call a position, numbered in the order calls
  first appear. An index-less fragment starts a new call when it brings a new id (a named
  fragment's, or one after a call that had its own id), or a name while the previous call's
  arguments are already whole JSON (or empty, under another name); any other index-less
  fragment continues the last call. A fragment whose ``index`` belongs to a call with another
  id is a new call (servers that number every call 0). Every call gets an id: the server's,
  else one of ours (``call_<reply>_<position>``, stable over the reply, unique across
  replies), sent once in the call's first fragment so langchain keeps it whole. That id is
  what is stored and sent back. Fragments of one call in one chunk are joined (langchain
  reads each entry of a chunk as a call of its own).
- **Reasoning** arrives in ``reasoning_content`` (DeepSeek, Kimi, Qwen), ``reasoning`` (vLLM,
  SGLang, Ollama, OpenRouter) or ``reasoning_details`` (OpenRouter: a list of
  ``reasoning.text`` / ``reasoning.summary`` / ``reasoning.encrypted`` items), or inline as
  ``<think>`` (mended later, :mod:`agents.providers.stream_repair`). Its text goes to
  ``additional_kwargs[REASONING_KEY]``; the field it came in to
  ``additional_kwargs[REASONING_FIELD_KEY]`` (once per reply); the raw details items (without
  their ``index``, so langchain appends them instead of gluing their strings together) to
  ``additional_kwargs[DETAILS_KEY]``. A server that sends one text in two fields (OpenRouter's
  ``reasoning`` beside ``reasoning_details``) is read once.
- **Legacy function calls** (``delta.function_call`` / ``message.function_call``, the framing
  before ``tool_calls``, still sent by some servers and proxies) are tool calls like any other:
  moved to ``tool_calls`` (one call, an id of ours), so a reply that calls a function this way
  is a call, never text with its call dropped.
- **Ids are unique within a reply**: a server id already taken by another call of the reply
  (servers that number every call ``call_0``, or repeat one id) gives the later call one of
  ours, so each tool result answers one call.
- **The reply is the assistant's**: a delta (or a whole message) whose ``role`` names
  another speaker (``user``, ``system``, ``tool``, a server's own) is the model's reply all
  the same; langchain would read a ``user`` one as a human message, a reply that is no reply.
- **One choice**: only choice 0 is the reply (the app never asks for ``n`` > 1); a chunk's
  choices with another ``index`` are dropped, so their text or finish reason is never read as
  this reply's.
- **Refusals** (``delta.refusal`` / ``message.refusal``) go to ``additional_kwargs["refusal"]``,
  joined over the stream. The finish reason stays where langchain puts it
  (``response_metadata["finish_reason"]``); a server that says it again on a later chunk (the
  same or another) is read once, the first time, since merged chunks glue strings together.
  A chunk that says it with a ``null`` delta (langchain would skip the chunk, finish reason and
  all) gets an empty one: a ``length`` there is still read.

Guarantee (checked by generated streams in ``tests/providers/test_wire_normalizer.py``): however
a reply's content, reasoning and calls are split into chunks, with ``index``, ``id``, ``role``
or repeated names dropped and whatever the finish reason, the merged message holds the content
sent, the reasoning sent, the refusal sent, the finish reason sent, and one call per call sent
(name, arguments, order) with a non-empty, unique id; ``tests/providers/test_wire_streams_http.py``
checks the same over HTTP, streamed and whole, and that a body cut at any byte gives a prefix
of the reply or one sentence. A plain content chunk costs one key-set test.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any, Final

import orjson
from langchain_core.messages.tool import invalid_tool_call

from agents.providers.call_arguments import NOT_AN_OBJECT, is_whole
from agents.providers.presets import CALL_EXTRA_FIELDS, REASONING_FIELDS
from agents.providers.thinking import REASONING_KEY

REASONING_FIELD_KEY = "reasoning_field"
"""Where a message's ``additional_kwargs`` name the wire field its reasoning came in."""
DETAILS_KEY = "reasoning_details"
"""Where a message's ``additional_kwargs`` keep OpenRouter's raw reasoning items."""
CALL_EXTRAS_KEY = "tool_call_extras"
"""Where a message's ``additional_kwargs`` keep what a server attached to each tool call
(``CALL_EXTRA_FIELDS``), by call id."""
REFUSAL_KEY = "refusal"
"""Where a message's ``additional_kwargs`` hold the model's refusal text."""


_PLAIN = frozenset({"content", "role"})


def reasoning_of(fields: Mapping[str, Any]) -> tuple[str, str | None, list[Any] | None]:
    """``(text, field, details)`` of the reasoning in a delta or a message: its text (read
    once, from the first string field that has it, else from the details items), the field
    it came in (``reasoning_details`` whenever details are there: they are what such a server
    needs back), and the details items without their stream ``index``."""
    text, field = "", None
    for name in REASONING_FIELDS[:2]:
        value = fields.get(name)
        if type(value) is str and value:
            text, field = value, name
            break
    raw = fields.get("reasoning_details")
    details: list[Any] | None = None
    if type(raw) is list and raw:
        details = [
            {k: v for k, v in item.items() if k != "index"} if type(item) is dict else item
            for item in raw
        ]
        field = "reasoning_details"
        if not text:
            text = details_text(details)
    return text, field, details


def details_text(details: list[Any]) -> str:
    """The readable text of reasoning items (``reasoning.text``'s ``text``,
    ``reasoning.summary``'s ``summary``; encrypted items have none)."""
    parts: list[str] = []
    for item in details:
        if type(item) is not dict:
            continue
        for key in ("text", "summary"):
            value = item.get(key)
            if type(value) is str and value:
                parts.append(value)
                break
    return "".join(parts)


def join_details(details: list[Any]) -> list[Any]:
    """Streamed reasoning items as one list to send back: consecutive fragments of the same
    type (and id) joined into one item, their text and signature strings concatenated."""
    joined: list[Any] = []
    for item in details:
        if type(item) is not dict:
            continue
        last = joined[-1] if joined else None
        if (
            last is not None
            and last.get("type") == item.get("type")
            and last.get("id") == item.get("id")
            and item.get("type") in ("reasoning.text", "reasoning.summary")
        ):
            for key in ("text", "summary", "signature"):
                value = item.get(key)
                if type(value) is str:
                    before = last.get(key)
                    last[key] = (before if type(before) is str else "") + value
            continue
        joined.append(dict(item))
    return joined


def _whole_json(text: str) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


class _Call:
    __slots__ = ("args", "extras_told", "id", "name", "server_id")

    def __init__(self) -> None:
        self.extras_told = False
        self.id: str | None = None
        self.server_id: str | None = None
        self.name = ""
        self.args: list[str] = []


class StreamNormalizer:
    """One per streamed reply: :meth:`chunk` every chunk dict in order (see the module)."""

    __slots__ = (
        "_by_index",
        "_call_extras",
        "_calls",
        "_field_told",
        "_finished",
        "_ids",
        "_last",
        "_next",
        "_reply",
    )

    def __init__(self, reply: str | None = None) -> None:
        self._reply = reply or uuid.uuid4().hex[:12]
        self._calls: dict[int, _Call] = {}
        self._by_index: dict[int, int] = {}
        """The server's ``index`` -> the position of the call it now means."""
        self._last = -1
        self._next = 0
        self._field_told = False
        self._finished = False
        self._call_extras: dict[str, dict[str, Any]] = {}
        self._ids: set[str] = set()
        """Every call id this reply has given out."""

    def new_id(self, position: int) -> str:
        """Our id for the call at ``position`` of this reply."""
        return f"call_{self._reply}_{position}"

    def chunk(self, chunk: dict[str, Any]) -> dict[str, Any] | None:
        """Mend ``chunk`` in place; the ``additional_kwargs`` its message should carry
        (reasoning, its field, refusal), or ``None`` when there are none."""
        choice = _choice_zero(chunk)
        if choice is None:
            return None
        if choice.get("finish_reason") is not None:
            if self._finished:
                choice["finish_reason"] = None  # said once: merged, two would be glued
            self._finished = True
        delta = choice.get("delta")
        if type(delta) is not dict:
            if choice.get("finish_reason") is not None:
                choice["delta"] = {}  # langchain skips a choice whose delta is null
            return None
        role = delta.get("role")
        if role is not None and role != "assistant":
            delta["role"] = "assistant"  # the reply is the model's, whatever a delta names
        if delta.keys() <= _PLAIN:
            return None
        if "function_call" in delta:
            legacy_as_tool_calls(delta)
        calls = delta.get("tool_calls")
        if type(calls) is list and calls:
            mended = [self._call(c) for c in calls if type(c) is dict]
            delta["tool_calls"] = _one_per_call(mended) if len(mended) > 1 else mended
            if self._call_extras:
                extras = self.extras(delta) or {}
                extras[CALL_EXTRAS_KEY], self._call_extras = self._call_extras, {}
                return extras
        return self.extras(delta)

    def extras(self, fields: Mapping[str, Any]) -> dict[str, Any] | None:
        """The ``additional_kwargs`` for the reasoning and refusal in ``fields``."""
        extras: dict[str, Any] = {}
        text, field, details = reasoning_of(fields)
        if text:
            extras[REASONING_KEY] = text
        if details:
            extras[DETAILS_KEY] = details
        if field is not None and not self._field_told:
            extras[REASONING_FIELD_KEY] = field
            self._field_told = True
        refusal = fields.get("refusal")
        if type(refusal) is str and refusal:
            extras[REFUSAL_KEY] = refusal
        return extras or None

    def _call(self, raw: dict[str, Any]) -> dict[str, Any]:
        function = raw.get("function")
        if type(function) is not dict:
            function = {}
        name = function.get("name")
        args = arguments_text(function.get("arguments"))
        server_id = raw.get("id")
        if type(server_id) is not str or not server_id:
            server_id = None
        index = raw.get("index")
        if type(index) is int:
            position = self._indexed(index, server_id)
        else:
            position = self._position(server_id, name if type(name) is str else None)
        call = self._calls.get(position)
        first = call is None
        if call is None:
            call = self._calls[position] = _Call()
        self._last = position
        if first:
            call.server_id = server_id
            call.id = server_id if server_id and server_id not in self._ids else None
            call.id = call.id or self.new_id(position)
            self._ids.add(call.id)
            out_id: str | None = call.id
        elif server_id is not None and server_id == call.server_id:
            out_id = call.id  # repeated: langchain keeps one
        else:
            out_id = None  # ours was sent with the first fragment
        if not call.extras_told and call.id is not None:
            kept = {f: raw[f] for f in CALL_EXTRA_FIELDS if raw.get(f) is not None}
            if kept:
                self._call_extras[call.id] = kept  # once: merged, strings would be glued
                call.extras_told = True
        if type(name) is str and name:
            call.name = name
        if type(args) is str and args:
            call.args.append(args)
        return {
            "index": position,
            "id": out_id,
            "type": raw.get("type") or "function",
            "function": {"name": name, "arguments": args if type(args) is str else ""},
        }

    def _indexed(self, index: int, server_id: str | None) -> int:
        """The position of a fragment the server gave ``index``: its own call's, unless it
        brings another id than that call's (servers that number every call 0)."""
        position = self._by_index.get(index)
        if position is not None:
            call = self._calls[position]
            if server_id is None or call.server_id is None or server_id == call.server_id:
                return position
        position = self._by_index[index] = self._take_next()
        return position

    def _position(self, server_id: str | None, name: str | None) -> int:
        """The position of an index-less fragment (see the module)."""
        last = self._calls.get(self._last)
        if last is None:
            return self._take_next()
        if (
            server_id is not None
            and server_id != last.server_id
            and (last.server_id is not None or name)
        ):
            return self._take_next()  # a new id (an unnamed one may be this call's, late)
        if name and server_id is None:
            args = "".join(last.args)
            if (args and _whole_json(args)) or (not args and last.name and name != last.name):
                return self._take_next()
        return self._last

    def _take_next(self) -> int:
        position = self._next
        self._next += 1
        return position


def arguments_text(value: Any) -> str | None:
    """A call's ``arguments`` as the JSON text OpenAI sends: a string as it came, any other
    JSON value (an object, as some servers send it, or an array, a number...) written as JSON
    (then read as whole or not like any text), ``None`` for none."""
    if value is None or type(value) is str:
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _choice_zero(chunk: dict[str, Any]) -> dict[str, Any] | None:
    """The chunk's choice 0 (``None`` when it has none), the chunk's other choices dropped."""
    choices = chunk.get("choices")
    if not choices:
        return None
    choice = choices[0]
    if len(choices) > 1 or (type(choice) is dict and choice.get("index", 0) not in (0, None)):
        kept = [c for c in choices if type(c) is dict and c.get("index", 0) in (0, None)][:1]
        chunk["choices"] = kept
        choice = kept[0] if kept else None
    return choice if type(choice) is dict else None


def completion_call_extras(raw_calls: Any, message: Any) -> dict[str, dict[str, Any]]:
    """What a finished completion's server attached to its tool calls, by the ids the
    ``AIMessage``'s calls have (paired by the server's id, else by order)."""
    if type(raw_calls) is not list:
        return {}
    calls = [*message.tool_calls, *message.invalid_tool_calls]
    by_order = not message.invalid_tool_calls and len(calls) == len(raw_calls)
    out: dict[str, dict[str, Any]] = {}
    for position, raw in enumerate(raw_calls):
        if type(raw) is not dict:
            continue
        kept = {f: raw[f] for f in CALL_EXTRA_FIELDS if raw.get(f) is not None}
        if not kept:
            continue
        call_id = raw.get("id") if type(raw.get("id")) is str and raw.get("id") else None
        if call_id is None and by_order:
            call_id = calls[position].get("id")
        if call_id:
            out[call_id] = kept
    return out


def reasoning_meta(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """What a stored reply keeps of its wire form (the field its reasoning came in,
    OpenRouter's reasoning items joined, what the server attached to its calls), from its
    message's ``additional_kwargs``: a later turn, or a resumed one, sends them back where the
    server needs them (:func:`reasoning_kwargs`)."""
    meta: dict[str, Any] = {}
    field = kwargs.get(REASONING_FIELD_KEY)
    if isinstance(field, str) and field in REASONING_FIELDS:
        meta[REASONING_FIELD_KEY] = field
    details = kwargs.get(DETAILS_KEY)
    if isinstance(details, list) and details:
        meta[DETAILS_KEY] = join_details(details)
    extras = kwargs.get(CALL_EXTRAS_KEY)
    if isinstance(extras, Mapping) and extras:
        meta[CALL_EXTRAS_KEY] = {k: dict(v) for k, v in extras.items() if isinstance(v, Mapping)}
    return meta


def reasoning_kwargs(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The ``additional_kwargs`` a stored reply's :func:`reasoning_meta` gives back."""
    return reasoning_meta(meta)


def _one_per_call(fragments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fragments of one chunk joined per call: langchain reads each entry of a chunk as a call
    of its own, and merges by index only across chunks."""
    calls: dict[int, dict[str, Any]] = {}
    for fragment in fragments:
        call = calls.get(fragment["index"])
        if call is None:
            calls[fragment["index"]] = fragment
            continue
        call["id"] = call["id"] or fragment["id"]
        function, more = call["function"], fragment["function"]
        if not function.get("name"):
            function["name"] = more.get("name")
        function["arguments"] += more["arguments"]
    return list(calls.values())


def fill_missing_ids(message: Any, reply: str | None = None) -> None:
    """Give every tool call (and broken call) of a finished ``AIMessage`` without an id, or
    with an id an earlier call of it has, one of ours, as :class:`StreamNormalizer` does for a
    stream."""
    reply = reply or uuid.uuid4().hex[:12]
    seen: set[str] = set()
    for position, call in enumerate([*message.tool_calls, *message.invalid_tool_calls]):
        if not call.get("id") or call["id"] in seen:
            call["id"] = f"call_{reply}_{position}"
        seen.add(call["id"])


LEGACY_INDEX: Final = -1
"""The ``index`` a legacy ``function_call`` takes among a stream's tool calls (no server
numbers a call so, so it is never another call's)."""


def legacy_as_tool_calls(fields: dict[str, Any]) -> None:
    """``fields`` (a delta or a message) with its legacy ``function_call`` moved to
    ``tool_calls``, beside any calls already there."""
    legacy = fields.pop("function_call", None)
    if type(legacy) is not dict:
        return
    call: dict[str, Any] = {"index": LEGACY_INDEX, "type": "function", "function": legacy}
    calls = fields.get("tool_calls")
    fields["tool_calls"] = [*calls, call] if type(calls) is list else [call]


def mend_completion(data: Mapping[str, Any]) -> tuple[dict[str, Any] | None, list[list[Any]]]:
    """A whole completion read as a stream is: ``(the response to parse, or None when it needs
    no mending; per choice, the broken calls taken out of it)``.

    Only choice 0 is kept (the reply; another choice is never read as it), and its message
    is the assistant's whatever its ``role`` says (servers leave it out, or ``null``, as a
    stream's deltas do). Its legacy
    ``function_call`` becomes a tool call (:func:`legacy_as_tool_calls`), arguments
    sent as a JSON value rather than its text are written as text (:func:`arguments_text`), and
    a call whose arguments are not one JSON object (:func:`is_whole`: ``[]``, ``null``, ``"x"``, cut
    JSON) is taken out before langchain reads it (which would run ``[]`` or ``null`` as ``{}``
    and fail on a string) and given back as an ``invalid_tool_call`` with its raw arguments."""
    choices = data.get("choices")
    if type(choices) is not list:
        return None, []
    zero = [c for c in choices if type(c) is dict and c.get("index", 0) in (0, None)][:1]
    if zero != choices:  # only choice 0 is the reply
        only_zero, broken_zero = mend_completion({**data, "choices": zero})
        return only_zero or {**data, "choices": zero}, broken_zero
    mended: list[Any] = []
    broken: list[list[Any]] = []
    changed = False
    for choice in choices:
        message = choice.get("message") if type(choice) is dict else None
        pulled: list[Any] = []
        broken.append(pulled)
        if type(message) is dict and message.get("role") != "assistant":
            # the reply is the assistant's, however the server named it (or did not)
            message = {**message, "role": "assistant"}
            choice = {**choice, "message": message}
            changed = True
        if type(message) is not dict or not (
            message.get("function_call") or message.get("tool_calls")
        ):
            mended.append(choice)
            continue
        message = dict(message)
        if message.get("function_call"):
            legacy_as_tool_calls(message)
            changed = True
        kept = []
        for raw in message.get("tool_calls") or ():
            function = raw.get("function") if type(raw) is dict else None
            sent = function.get("arguments") if type(function) is dict else None
            args = arguments_text(sent)
            if args is not None and type(sent) is not str:  # an object, not its JSON text
                raw = {**raw, "function": {**function, "arguments": args}}  # type: ignore[dict-item]
                changed = True
            if type(args) is str and not is_whole(args):
                name, call_id = function.get("name"), raw.get("id")  # type: ignore[union-attr]
                pulled.append(
                    invalid_tool_call(
                        name=name if type(name) is str else None,
                        args=args,
                        id=call_id if type(call_id) is str and call_id else None,
                        error=NOT_AN_OBJECT,
                    )
                )
                changed = True
                continue
            kept.append(raw)
        message["tool_calls"] = kept or None
        mended.append({**choice, "message": message})
    if not changed:
        return None, broken
    return {**data, "choices": mended}, broken
