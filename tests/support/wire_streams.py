"""Generated OpenAI-compatible streams: one reply, framed the many ways servers frame it.

:func:`replies` draws a :class:`SentReply` (what the model said: content, reasoning in one of
the fields servers use, tool calls, a refusal, a finish reason) together with the chunk dicts a
server could send for it: content, reasoning and arguments cut at random places, several calls
in one chunk, ``index`` / ``id`` / ``role`` dropped, ids empty, names repeated in every chunk,
fields reordered, the finish reason on its own chunk, on the last one, or missing, usage or not,
the ``role`` the assistant's or any other.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

FINISH_REASONS = ("stop", "tool_calls", "length", "content_filter", None)
REASONING_WAYS = ("reasoning_content", "reasoning", "reasoning_details", "openrouter", "think")
"""``openrouter``: ``reasoning`` and ``reasoning_details`` both, with the same text."""
CALL_WAYS = ("indexed", "index zero", "indexless whole", "indexless split", "legacy")
"""``indexed``: each call its own index, its fragments maybe interleaved with another call's;
``index zero``: every call numbered 0, told apart by its id (as some servers send them);
``legacy``: one call as ``function_call`` deltas (the framing before ``tool_calls``)."""

ROLES = ("assistant", "assistant", "user", "system", "tool", "model", None)
"""The ``role`` a server's deltas may name (the reply is the assistant's whatever it says)."""

_TEXT = st.text(alphabet="abcxyz ,.!éü\n", max_size=24)
_ARGS = st.dictionaries(
    st.sampled_from(["path", "query", "n", "to"]),
    st.one_of(st.integers(-3, 99), st.text(alphabet="ab c/{}", max_size=6)),
    max_size=3,
)


@dataclass
class SentReply:
    """What the model said, whatever the framing."""

    content: str = ""
    reasoning: str = ""
    reasoning_way: str = "reasoning_content"
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    refusal: str = ""
    finish_reason: str | None = None

    @property
    def answer(self) -> str:
        """The content the merged message should hold (a ``<think>`` block's answer loses its
        leading whitespace, as the splitter drops it)."""
        return (
            self.content.lstrip()
            if self.reasoning_way == "think" and self.reasoning
            else (self.content)
        )


def _pieces(draw: st.DrawFn, text: str, *, empty: bool = True) -> list[str]:
    """``text`` cut at drawn places (one piece, or none when empty and ``empty``)."""
    if not text:
        return [] if empty else [""]
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=4)))
    bounds = [0, *[c for c in cuts if 0 < c < len(text)], len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def _shuffled(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    keys = draw(st.permutations(list(data)))
    return {key: data[key] for key in keys}


@st.composite
def replies(
    draw: st.DrawFn, call_ways: Sequence[str] = CALL_WAYS, min_calls: int = 0
) -> tuple[SentReply, list[dict[str, Any]]]:
    """A reply and the chunk dicts of one framing of it (its calls framed one of
    ``call_ways``, at least ``min_calls`` of them)."""
    sent = SentReply(
        content=draw(_TEXT),
        reasoning=draw(st.one_of(st.just(""), _TEXT)),
        reasoning_way=draw(st.sampled_from(REASONING_WAYS)),
        calls=draw(
            st.lists(
                st.tuples(st.sampled_from(["read_file", "search", "reply_privately"]), _ARGS),
                min_size=min_calls,
                max_size=max(3, min_calls),
            )
        ),
        refusal=draw(st.one_of(st.just(""), _TEXT)),
        finish_reason=draw(st.sampled_from(FINISH_REASONS)),
    )
    deltas: list[dict[str, Any]] = []
    role = draw(st.sampled_from(ROLES))
    if not draw(st.booleans()):
        deltas.append({"role": role, "content": ""})
    content = sent.content
    if sent.reasoning_way == "think" and sent.reasoning:
        content = f"<think>{sent.reasoning}</think>{sent.content}"
    elif sent.reasoning:
        for piece in _pieces(draw, sent.reasoning):
            deltas.append(_reasoning_delta(sent.reasoning_way, piece))
    deltas.extend({"content": piece} for piece in _pieces(draw, content))
    deltas.extend({"content": None, "refusal": piece} for piece in _pieces(draw, sent.refusal))
    deltas.extend(_call_deltas(draw, sent, call_ways))
    if not deltas:
        deltas.append({"role": "assistant", "content": ""})  # a stream has one chunk at least
    events: list[dict[str, Any]] = []
    role_everywhere = draw(st.booleans())
    for delta in deltas:
        if role_everywhere:
            delta = {"role": role, **delta}
        choice = {"index": 0, "delta": _shuffled(draw, delta), "finish_reason": None}
        events.append(_chunk(_shuffled(draw, choice)))
    _finish(draw, sent.finish_reason, events)
    _other_choices(draw, events)
    if draw(st.booleans()):
        usage = {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}
        events.append({"id": "chatcmpl-gen", "object": "chat.completion.chunk", "choices": [],
                       "usage": usage})  # fmt: skip
    return sent, events


def _finish(draw: st.DrawFn, reason: str | None, events: list[dict[str, Any]]) -> None:
    """``reason`` said on the last chunk or on one of its own (its delta ``{}``, ``null`` or
    missing), and maybe said again on a trailing chunk."""
    if reason is None:
        return
    if draw(st.sampled_from(["own chunk", "last chunk"])) == "last chunk" and events:
        events[-1]["choices"][0]["finish_reason"] = reason
    else:
        own: dict[str, Any] = {"index": 0, "finish_reason": reason}
        delta = draw(st.sampled_from(["{}", "null", "missing"]))
        if delta != "missing":
            own["delta"] = {} if delta == "{}" else None
        events.append(_chunk(own))
    if draw(st.booleans()):  # said again, as some servers do on a trailing chunk
        events.append(_chunk({"index": 0, "delta": {}, "finish_reason": reason}))


def _other_choices(draw: st.DrawFn, events: list[dict[str, Any]]) -> None:
    """Chunks of other choices (``index`` 1-3) put among ``events``: never this reply's."""
    for _ in range(draw(st.integers(0, 2))):
        other = {"index": draw(st.integers(1, 3)), "delta": {"content": "OTHER CHOICE"},
                 "finish_reason": draw(st.sampled_from(["length", None]))}  # fmt: skip
        at = draw(st.integers(0, len(events)))
        if at < len(events) and draw(st.booleans()):
            events[at]["choices"].append(other)
        else:
            events.insert(at, _chunk(other))


def _chunk(choice: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-gen",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "fake-model",
        "choices": [choice],
    }


def _reasoning_delta(way: str, piece: str) -> dict[str, Any]:
    item = {"type": "reasoning.text", "text": piece, "format": "unknown", "index": 0}
    if way == "reasoning_details":
        return {"content": None, "reasoning_details": [item]}
    if way == "openrouter":
        return {"content": None, "reasoning": piece, "reasoning_details": [item]}
    return {"content": None, way: piece}


def _call_deltas(
    draw: st.DrawFn, sent: SentReply, call_ways: Sequence[str]
) -> list[dict[str, Any]]:
    """The ``tool_calls`` deltas of the reply's calls, framed one of ``call_ways``."""
    if not sent.calls:
        return []
    way = draw(st.sampled_from(call_ways))
    if way == "legacy" and len(sent.calls) == 1:
        return _legacy_deltas(draw, *sent.calls[0])
    way = "indexed" if way == "legacy" else way  # several calls never came this way
    kinds = ["unique", "missing", "empty", *(["duplicate"] if way == "indexed" else [])]
    ids = "unique" if way == "index zero" else draw(st.sampled_from(kinds))
    repeat_names = way != "indexless whole" and draw(st.booleans())
    fragments: list[dict[str, Any]] = []
    for position, (name, args) in enumerate(sent.calls):
        text = json.dumps(args)
        head: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": ""}}
        if ids != "missing":
            head["id"] = _server_id(draw, ids, position)
        if way in ("indexed", "index zero"):
            head["index"] = 0 if way == "index zero" else position
        if way == "indexless whole":
            head["function"]["arguments"] = text
            fragments.append(head)
            continue
        fragments.append(head)
        for piece in _pieces(draw, text, empty=False):
            fragment: dict[str, Any] = {"function": {"arguments": piece}}
            if way in ("indexed", "index zero"):
                fragment["index"] = 0 if way == "index zero" else position
            if repeat_names:
                fragment["function"]["name"] = name
                if "id" in head:
                    fragment["id"] = head["id"]
            fragments.append(fragment)
    return _grouped(draw, _interleaved(draw, fragments) if way == "indexed" else fragments)


def _grouped(draw: st.DrawFn, fragments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``fragments`` sent 1-3 to a chunk, fields in any order."""
    deltas: list[dict[str, Any]] = []
    while fragments:
        size = draw(st.integers(1, 3))
        group, fragments = fragments[:size], fragments[size:]
        deltas.append({"tool_calls": [_shuffled(draw, f) for f in group]})
    return deltas


def _interleaved(draw: st.DrawFn, fragments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Indexed fragments of several calls interleaved, each call's in its own order and the
    calls started in the order of their index (as servers that stream parallel calls at once
    send them)."""
    queues: dict[int, list[dict[str, Any]]] = {}
    for fragment in fragments:
        queues.setdefault(fragment["index"], []).append(fragment)
    waiting = sorted(queues)
    started: list[int] = []
    out: list[dict[str, Any]] = []
    while queues:
        index = draw(st.sampled_from(started + waiting[:1]))
        if waiting and index == waiting[0]:
            started.append(waiting.pop(0))
        out.append(queues[index].pop(0))
        if not queues[index]:
            del queues[index]
            started.remove(index)
    return out


def _server_id(draw: st.DrawFn, ids: str, position: int) -> str:
    """The id a server gives the call at ``position``: ``unique``, ``duplicate`` (the same
    on every call) or ``empty``."""
    if ids == "unique":
        return f"srv_{position}_{draw(st.integers(0, 9))}"
    return "call_0" if ids == "duplicate" else ""


def _legacy_deltas(draw: st.DrawFn, name: str, args: dict[str, Any]) -> list[dict[str, Any]]:
    """One call as legacy ``function_call`` deltas, its arguments cut at drawn places."""
    pieces = _pieces(draw, json.dumps(args), empty=False)
    rest = [{"function_call": {"arguments": piece}} for piece in pieces[1:]]
    return [{"function_call": {"name": name, "arguments": pieces[0]}}, *rest]


@st.composite
def completions(draw: st.DrawFn) -> tuple[SentReply, dict[str, Any]]:
    """A reply and one non-streamed ``choices[0].message`` for it (with ``finish_reason``):
    reasoning in any field, ids present, missing or empty, ``role`` missing or another,
    fields in any order."""
    sent = SentReply(
        content=draw(_TEXT),
        reasoning=draw(st.one_of(st.just(""), _TEXT)),
        reasoning_way=draw(st.sampled_from(REASONING_WAYS)),
        calls=draw(
            st.lists(st.tuples(st.sampled_from(["read_file", "search"]), _ARGS), max_size=3)
        ),
        refusal=draw(st.one_of(st.just(""), _TEXT)),
        finish_reason=draw(st.sampled_from(FINISH_REASONS)),
    )
    message: dict[str, Any] = {"role": "assistant", "content": sent.content or None}
    if sent.reasoning:
        if sent.reasoning_way == "think":
            message["content"] = f"<think>{sent.reasoning}</think>{sent.content}"
        else:
            message.update(_reasoning_delta(sent.reasoning_way, sent.reasoning))
            message["content"] = sent.content or None
    if sent.refusal:
        message["refusal"] = sent.refusal
    ids = draw(st.sampled_from(["unique", "missing", "empty", "duplicate"]))
    calls = []
    for position, (name, args) in enumerate(sent.calls):
        call: dict[str, Any] = {"type": "function", "function": {"name": name,
                                "arguments": json.dumps(args)}}  # fmt: skip
        if ids != "missing":
            call["id"] = {"unique": f"srv_{position}", "duplicate": "call_0"}.get(ids, "")
        calls.append(_shuffled(draw, call))
    if len(calls) == 1 and draw(st.booleans()):
        message["function_call"] = calls[0]["function"]  # the legacy framing
    elif calls:
        message["tool_calls"] = calls
    message["finish_reason"] = sent.finish_reason
    role = draw(st.sampled_from(["assistant", "missing", None, "", "model"]))
    if role != "assistant":  # servers leave it out, or send another, as a stream's deltas do
        if role == "missing":
            del message["role"]
        else:
            message["role"] = role
    return sent, _shuffled(draw, message)


FRAMINGS = ("plain", "crlf", "no space", "comments", "bom")
"""How a server may frame the same SSE events: LF, CRLF line ends, ``data:`` without the space,
keep-alive comments between events (``: OPENROUTER PROCESSING``), a byte order mark first."""


def sse_body(
    events: Sequence[dict[str, Any] | str], framing: str = "plain", done: bool = True
) -> bytes:
    """The SSE body of ``events`` (chunk dicts, or raw event text such as ``"event: error\\n
    data: ..."``) framed ``framing``, ending with ``[DONE]`` when ``done``."""
    end = "\r\n" if framing == "crlf" else "\n"
    data = "data:" if framing == "no space" else "data: "
    parts: list[str] = []
    for event in [*events, *(["[DONE]"] if done else [])]:
        if framing == "comments":
            parts.append(f": OPENROUTER PROCESSING{end}{end}")
        if isinstance(event, dict):
            text = data + json.dumps(event)
        elif event == "[DONE]" or not event.startswith(("event:", "data:")):
            text = data + event
        else:
            text = event.replace("\n", end)
        parts.append(text + end + end)
    body = "".join(parts).encode()
    return b"\xef\xbb\xbf" + body if framing == "bom" else body
