"""What the fake OpenAI server says: scripted replies, faults, and the wire chunks they become.

A test queues ``Reply`` objects on the server (``fake_openai.script(...)``); each one answers
one ``POST /v1/chat/completions``. A reply is either a normal answer (content split into
deltas, streamed tool calls, a usage chunk, a finish reason) or a fault a real provider can
produce (an HTTP error status, a connection reset mid-stream, a malformed chunk, an error
event inside the stream, a first byte that arrives after the client gave up).

The chunk layout follows OpenAI's Chat Completions streaming format, so ``ChatOpenAI`` and the
``openai`` SDK parse it with their real code.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

_WORDISH = re.compile(r"\s*\S+|\s+")
_call_counter = itertools.count(1)


def split_tokens(text: str) -> list[str]:
    """Split text into token-like deltas: each word with the whitespace before it."""
    return _WORDISH.findall(text)


def split_even(text: str, parts: int) -> list[str]:
    """Split text into ``parts`` pieces of (nearly) equal length, none empty unless text is."""
    if not text:
        return []
    parts = max(1, min(parts, len(text)))
    size, extra = divmod(len(text), parts)
    pieces, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        pieces.append(text[start:end])
        start = end
    return pieces


@dataclass
class ToolCall:
    """A tool call the model makes; ``arguments`` (a dict or a JSON string) streams in pieces."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str = ""
    argument_chunks: int = 3
    name_in_every_chunk: bool = False
    """Repeat the whole name (and id) in every argument chunk, as NVIDIA NIM's servers do."""

    def arguments_json(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments)

    def call_id(self) -> str:
        if not self.id:
            self.id = f"call_{next(_call_counter):06d}"
        return self.id


@dataclass
class Reply:
    """One scripted answer (or fault) for one chat-completions request.

    Content is streamed as ``deltas`` when given, else as ``chunks`` even pieces when given,
    else word by word. Faults: ``status`` >= 400 sends an OpenAI-style error body (with
    ``headers``, e.g. ``retry-after``); ``reset_after`` sends that many chunks then resets the
    TCP connection; ``malformed_after`` sends that many chunks then one that is not JSON;
    ``stream_error_after`` sends an in-stream ``{"error": ...}`` event; ``first_byte_delay``
    waits before the response headers (past a client timeout it becomes a timeout);
    ``raw_body`` answers 200 with that body and ``content_type`` (``Reply.raw``).
    ``reasoning``: a thinking model's reasoning, streamed first as ``reasoning_content`` deltas
    (as DeepSeek, Kimi, Qwen and vLLM servers send it), or ``message.reasoning_content`` whole.
    """

    content: str = ""
    reasoning: list[str] | None = None
    refusal: str | None = None
    """A refusal: streamed as ``delta.refusal`` pieces with ``content: null`` (or
    ``message.refusal`` whole), as OpenAI's models refuse."""
    usage_at: str = "final chunk"
    """Where the stream puts usage: ``"final chunk"`` (``choices: []``, only when asked for,
    as OpenAI does), ``"finish chunk"`` (top-level on the chunk with the finish reason) or
    ``"in choice"`` (inside that chunk's ``choices[0]``, as Moonshot does); both of these
    are sent whether asked for or not."""
    tool_calls: list[ToolCall] = field(default_factory=list)
    deltas: list[str] | None = None
    chunks: int | None = None
    finish_reason: str | None = None
    no_finish_reason: bool = False
    """The stream's last chunk carries ``finish_reason: null`` (servers that never say)."""
    usage: tuple[int, int] | None = None
    usage_extra: dict[str, Any] = field(default_factory=dict)
    """More fields of the reply's ``usage`` object, as given (any type: a server's own),
    e.g. ``{"prompt_tokens_details": {"cached_tokens": 80}, "cost": 0.0012}``."""
    token_delay: float | None = None
    first_byte_delay: float = 0.0
    status: int = 200
    error_message: str | None = None
    error_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    reset_after: int | None = None
    malformed_after: int | None = None
    stream_error_after: int | None = None
    raw_body: bytes | None = None
    """Sent as the whole 200 answer (with ``content_type``) instead of a chat completion: a
    misconfigured base URL's web page, an empty body, a stream of only ``[DONE]``."""
    content_type: str = "application/json"
    error_json: Any = None
    """The whole JSON body of an error answer (``status`` >= 400) when a server sends its own
    shape, not OpenAI's (``Reply.ollama_model_not_found``)."""
    error_text: bytes | None = None
    """The body of an error answer (``status`` >= 400) that is not JSON (a proxy's HTML page,
    plain text, nothing at all), sent with ``content_type``."""
    lockstep: bool = False
    """Send each event on its own, and the next one only once the test has called
    ``FakeOpenAI.step()`` (once per chunk it received): a client that held an event back,
    waiting for more, would never get the next one."""
    events: list[dict[str, Any]] | None = None
    """Stream exactly these chunk dicts (each one SSE event, as given: any field may be
    missing or reordered), then ``[DONE]``; the way to reproduce a server's own framing."""
    completion: dict[str, Any] | None = None
    """Answer a non-streamed request with this ``choices[0].message`` (and ``finish_reason``)."""
    cut_at: int | None = None
    """End a streamed body after this many bytes of its events (cleanly, mid-event maybe)."""
    holds: tuple[int, ...] = ()
    """Content-delta indices the stream stops before (everything sent so far flushed) until
    the test calls ``FakeOpenAI.release()``, once per hold; ``len(deltas)`` holds before the
    tool calls and the finish. A reply that must still be streaming when the test acts holds
    there, instead of being paced slowly enough on a clock."""

    # Faults, named as a test reads them.
    @classmethod
    def http_error(cls, status: int, message: str | None = None, **headers: str) -> Reply:
        return cls(status=status, error_message=message, headers=dict(headers))

    @classmethod
    def unauthorized(cls) -> Reply:
        return cls(status=401, error_message="Incorrect API key provided.")

    @classmethod
    def rate_limited(cls, retry_after: float | str = 7) -> Reply:
        return cls(
            status=429,
            error_message="Rate limit reached for requests.",
            error_type="rate_limit_exceeded",
            headers={"retry-after": str(retry_after)},
        )

    @classmethod
    def server_error(cls, status: int = 500) -> Reply:
        return cls(status=status, error_message="The server had an error processing your request.")

    @classmethod
    def model_not_found(cls, model: str = "no-such-model") -> Reply:
        return cls(
            status=404,
            error_message=f"The model `{model}` does not exist.",
            error_type="invalid_request_error",
        )

    @classmethod
    def ollama_model_not_found(cls, model: str, *, wrapped: bool = True) -> Reply:
        """Ollama's 404 for a model it has not pulled: its OpenAI-compatible endpoint wraps
        the native ``{"error": "..."}`` message in an OpenAI-style error (``wrapped``)."""
        message = f"model {json.dumps(model)} not found, try pulling it first"
        body: dict[str, Any] = {"error": message}
        if wrapped:
            body = {"error": {"message": message, "type": "api_error", "param": None, "code": None}}
        return cls(status=404, error_json=body)

    @classmethod
    def reset_mid_stream(cls, content: str = "This reply is cut off here", after: int = 2) -> Reply:
        return cls(content=content, reset_after=after)

    @classmethod
    def malformed_chunk(cls, content: str = "Half a reply then", after: int = 1) -> Reply:
        return cls(content=content, malformed_after=after)

    @classmethod
    def slow_first_byte(cls, seconds: float, content: str = "Too late.") -> Reply:
        return cls(content=content, first_byte_delay=seconds)

    @classmethod
    def raw(cls, body: bytes, content_type: str) -> Reply:
        return cls(raw_body=body, content_type=content_type)

    @classmethod
    def calls_without_index(
        cls, *calls: ToolCall, ids: bool = False, signatures: bool = False
    ) -> Reply:
        """Tool calls as Gemini's OpenAI-compatible endpoint sends them: every call whole in
        one chunk, no ``index``, ids empty (or given, with ``ids``), ``finish_reason: stop``;
        with ``signatures``, each with its ``extra_content`` thought signature."""
        raw: list[dict[str, Any]] = [
            {
                "id": call.call_id() if ids else "",
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments_json()},
            }
            for call in calls
        ]
        if signatures:
            for n, call in enumerate(raw):
                call["extra_content"] = {"google": {"thought_signature": f"SIG{n}"}}
        choice = {"index": 0, "delta": {"role": "assistant", "tool_calls": raw}}
        chunk = {"id": "chatcmpl-g", "object": "chat.completion.chunk", "model": "m"}
        return cls(events=[{**chunk, "choices": [{**choice, "finish_reason": "stop"}]}])

    @classmethod
    def from_tokens(cls, tokens: list[str], **kwargs: Any) -> Reply:
        return cls(content="".join(tokens), deltas=tokens, **kwargs)

    def content_deltas(self) -> list[str]:
        if self.deltas is not None:
            return list(self.deltas)
        if self.chunks is not None:
            return split_even(self.content, self.chunks)
        return split_tokens(self.content)

    def held_events(self) -> frozenset[int]:
        """The stream's event indices of :attr:`holds` (the role and reasoning events first)."""
        first = 1 + len(self.reasoning or ()) + len(split_tokens(self.refusal or ""))
        return frozenset(first + index for index in self.holds)

    def final_finish_reason(self) -> str | None:
        if self.no_finish_reason:
            return None
        if self.finish_reason:
            return self.finish_reason
        return "tool_calls" if self.tool_calls else "stop"

    def error_body(self) -> Any:
        if self.error_json is not None:
            return self.error_json
        return {
            "error": {
                "message": self.error_message or f"HTTP {self.status}",
                "type": self.error_type or "invalid_request_error",
                "param": None,
                "code": None,
            }
        }


ReplySource = Reply | Callable[[dict[str, Any]], Reply]
"""A queued item: a ``Reply``, or a function of the request body that makes one."""


def echo_reply(body: dict[str, Any]) -> Reply:
    """The default when nothing is scripted: repeat the last user message, so a reply depends
    on the request (handy for CLI and UI tests that only need *a* real stream)."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            return Reply(content=f"You said: {content}")
    return Reply(content="Hello from the fake OpenAI server.")


def estimate_prompt_tokens(body: dict[str, Any]) -> int:
    """A rough, deterministic prompt-token count: words in every message plus 3 per message."""
    total = 0
    for message in body.get("messages") or []:
        total += 3 + len(split_tokens(json.dumps(message.get("content") or "")))
    return total


class ChunkWriter:
    """Builds the ``data: {...}`` SSE events of one streamed reply."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.id = f"chatcmpl-fake{next(_call_counter):06d}"
        self.created = int(time.time())
        head = {"id": self.id, "object": "chat.completion.chunk", "created": self.created}
        self._prefix = (json.dumps(head)[:-1] + f', "model": {json.dumps(model)}, ').encode()

    def event(self, delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return b"data: " + self._prefix + b'"choices":[' + json.dumps(choice).encode() + b"]}\n\n"

    def content_event(self, text: str) -> bytes:
        # The hot path of a 20,000-token benchmark: only the text needs JSON escaping.
        return (
            b"data: "
            + self._prefix
            + b'"choices":[{"index":0,"delta":{"content":'
            + json.dumps(text).encode()
            + b'},"logprobs":null,"finish_reason":null}]}\n\n'
        )

    @staticmethod
    def usage_json(reply: Reply, prompt: int, completion: int) -> dict[str, Any]:
        """The reply's ``usage`` object: the counts, then its ``usage_extra`` fields."""
        usage: dict[str, Any] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        return {**usage, **reply.usage_extra}

    def usage_event(self, reply: Reply, prompt: int, completion: int) -> bytes:
        usage = self.usage_json(reply, prompt, completion)
        return (
            b"data: "
            + self._prefix
            + b'"choices":[],"usage":'
            + json.dumps(usage).encode()
            + b"}\n\n"
        )

    def reply_events(
        self, reply: Reply, prompt_tokens: int, include_usage: bool
    ) -> Iterator[bytes]:
        """Every event of a normal reply, ``[DONE]`` included."""
        if reply.cut_at is not None:
            body = b"".join(self._events(reply, prompt_tokens, include_usage))
            yield body[: reply.cut_at]
            return
        yield from self._events(reply, prompt_tokens, include_usage)

    def _events(self, reply: Reply, prompt_tokens: int, include_usage: bool) -> Iterator[bytes]:
        if reply.events is not None:
            for chunk in reply.events:
                yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
            yield b"data: [DONE]\n\n"
            return
        yield self.event({"role": "assistant", "content": ""})
        for thought in reply.reasoning or ():
            yield self.event({"content": None, "reasoning_content": thought})
        for piece in split_tokens(reply.refusal or ""):
            yield self.event({"content": None, "refusal": piece})
        deltas = reply.content_deltas()
        for text in deltas:
            yield self.content_event(text)
        pieces = 0
        for index, call in enumerate(reply.tool_calls):
            args = split_even(call.arguments_json(), call.argument_chunks) or [""]
            head = {
                "index": index,
                "id": call.call_id(),
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            yield self.event({"tool_calls": [head]})
            for piece in args:
                pieces += 1
                delta: dict[str, Any] = {"index": index, "function": {"arguments": piece}}
                if call.name_in_every_chunk:
                    delta = {**head, "function": {"name": call.name, "arguments": piece}}
                yield self.event({"tool_calls": [delta]})
        prompt, completion = reply.usage or (prompt_tokens, len(deltas) + pieces)
        yield self.finish_event(reply, prompt, completion)
        if include_usage and reply.usage_at == "final chunk":
            yield self.usage_event(reply, prompt, completion)
        yield b"data: [DONE]\n\n"

    def finish_event(self, reply: Reply, prompt: int, completion: int) -> bytes:
        """The chunk with the finish reason (and the usage, where the reply puts it there)."""
        usage = self.usage_json(reply, prompt, completion)
        choice: dict[str, Any] = {
            "index": 0,
            "delta": {},
            "logprobs": None,
            "finish_reason": reply.final_finish_reason(),
        }
        extra = b""
        if reply.usage_at == "in choice":
            choice["usage"] = usage
        elif reply.usage_at == "finish chunk":
            extra = b',"usage":' + json.dumps(usage).encode()
        return (
            b"data: "
            + self._prefix
            + b'"choices":['
            + json.dumps(choice).encode()
            + b"]"
            + extra
            + b"}\n\n"
        )

    def completion_json(self, reply: Reply, prompt_tokens: int) -> dict[str, Any]:
        """The non-streaming ``chat.completion`` object for a reply."""
        if reply.completion is not None:
            given = {k: v for k, v in reply.completion.items() if k != "finish_reason"}
            return {
                "id": self.id,
                "object": "chat.completion",
                "created": self.created,
                "model": self.model,
                "choices": [
                    {
                        "index": 0,
                        "message": given,
                        "finish_reason": reply.completion.get("finish_reason"),
                    }
                ],
            }
        message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
        if reply.reasoning:
            message["reasoning_content"] = "".join(reply.reasoning)
        if reply.refusal:
            message["refusal"] = reply.refusal
        if reply.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.call_id(),
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments_json()},
                }
                for call in reply.tool_calls
            ]
        prompt, completion = reply.usage or (prompt_tokens, len(reply.content_deltas()))
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": reply.final_finish_reason(),
                }
            ],
            "usage": self.usage_json(reply, prompt, completion),
        }


_MARKDOWN_BLOCKS = [
    "## Section {n}\n\n",
    "The runtime streams each token as it arrives, and the view keeps up with the stream. ",
    "A conversation is a tree: every reply can be forked, edited, or regenerated.\n\n",
    "- first point about branch {n}\n- second point with `inline code`\n- third point\n\n",
    "```python\ndef step_{n}(value: int) -> int:\n    return value * {n} + 1\n```\n\n",
    "> A quoted remark about **bold** and *emphasis* in block {n}.\n\n",
    "1. numbered item\n2. another numbered item\n\n",
]


def markdown_tokens(count: int) -> list[str]:
    """``count`` deterministic token-like deltas of Markdown (headings, prose, lists, code
    fences, quotes): the long reply the streaming benchmarks send."""
    tokens: list[str] = []
    block = 0
    while len(tokens) < count:
        text = _MARKDOWN_BLOCKS[block % len(_MARKDOWN_BLOCKS)].format(n=block)
        tokens.extend(split_tokens(text))
        block += 1
    del tokens[count:]
    return tokens
