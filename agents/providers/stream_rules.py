"""How a streamed chat completion may end, decided in one place for every client of the app.

:class:`StreamRules` is shared by the async stream (:mod:`agents.providers.coalesced_stream`)
and the sync one (:mod:`agents.providers.checked_stream`), so ``astream``, ``ainvoke``,
``stream`` and ``invoke`` end a reply by the same rules. It reads the server-sent events of
one response (parsed by :class:`agents.providers.sse_events.SseEventParser`) into chunks,
merged by a :class:`agents.providers.chunk_merge.ChunkMerger`. A reply's usual text chunks
after the first of each run are read from their bytes by the reply's
:class:`agents.providers.content_template.ContentTemplate`, which reads every event as parsing
it whole would (tested over generated streams).

Guarantee (an allowlist of how a stream may end): a stream ends either with ``[DONE]``, or
with its body once a chunk has said the reply's (choice 0's) finish reason. A body that ends
before either (a connection closed cleanly mid-reply, a proxy that gave up) raises
``APIConnectionError`` once the chunks before it are out, as a reset connection does: the
reply was cut, whatever came of it. An error said in the stream raises ``openai.APIError`` in
every shape servers use: an event named ``error`` (whatever its data), a chunk with a
non-empty ``error`` (OpenAI, OpenRouter, LiteLLM), or a chunk whose ``object`` is ``"error"``
(vLLM's error response).

Every chunk is in a chat-completion chunk's shape
(:func:`agents.providers.chunk_shape.shape_problem`), or the stream raises
:class:`agents.providers.openai_answers.MalformedAnswer` once the chunks before it are out.

``[DONE]`` with no finish reason said anywhere ends the stream as a whole reply (read by
:func:`agents.reply_outcome.reply_outcome` by what it holds: written, calls or empty, never
cut). The evidence that real servers send good replies so: GenieX's ``serve`` (llama.cpp
based) sent ``"finish_reason": ""`` on every chunk, the last before ``[DONE]`` included
(qualcomm/GenieX#1243, fixed later); Gemini-to-OpenAI proxies are reported to send ``null``
throughout; Ollama's endpoint sent ``""`` rather than ``null`` on its chunks
(ollama/ollama#4357), and an empty reason is read as none. OpenAI, Azure, vLLM, llama.cpp's
server, current Ollama, LM Studio, Groq, Mistral, DeepSeek, Together, Fireworks, OpenRouter
and the Gemini and Anthropic compatible endpoints say a reason on the last chunk. Marking
every reply without one cut would mark every good reply of the servers that omit it;
``[DONE]`` is the server saying the body is whole, and a body cut before both ``[DONE]`` and a
finish reason is still a cut reply.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
import orjson

from agents.providers.chunk_merge import ChunkMerger, content_only
from agents.providers.chunk_shape import shape_problem
from agents.providers.content_template import ContentTemplate
from agents.providers.openai_answers import MalformedAnswer
from agents.providers.sse_events import SseEvent

CUT_MESSAGE = "The stream ended before the reply did."
LEARNING_TRIES = 4
"""How many usual chunks a stream learns a :class:`ContentTemplate` from at most (a server
whose every chunk differs besides its text, a per-chunk nonce say, reads every chunk whole)."""


def parse_json(data: bytes) -> Any:
    """An event's JSON: orjson (a third of ``json``'s time per event), else ``json`` for what
    orjson refuses and the SDK accepts (``NaN``, integers past 64 bits); ``ValueError`` if
    neither reads it, as the SDK raises."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


def finishes_the_reply(choices: Any) -> bool:
    """Whether a chunk's ``choices`` say the reply's finish reason (choice 0's: another
    choice's end is not this reply's)."""
    if type(choices) is not list:
        return False
    return any(
        type(c) is dict and c.get("index", 0) in (0, None) and c.get("finish_reason") is not None
        for c in choices
    )


def error_of(data: bytes) -> Any:
    """What an ``error`` event says: its JSON's ``error`` (or the JSON itself), else its text."""
    try:
        parsed = parse_json(data)
    except ValueError:
        return {"message": data.decode("utf-8", "replace").strip()}
    if isinstance(parsed, dict):
        return parsed.get("error") or parsed
    return {"message": str(parsed)}


class StreamRules:
    """The ending rules of one streamed response (see the module); mixed into the SDK's
    stream classes, whose ``response`` it reads."""

    response: Any
    _ended = False
    """Whether a chunk has said a finish reason."""
    _any = False
    """Whether a chunk has come (an answer of none is said by langchain's own error)."""
    _template: ContentTemplate | None = None
    """The bytes around the text of this reply's usual chunk, once learnt."""
    _tries = LEARNING_TRIES

    def _start(self) -> None:
        self._ended = self._any = False
        self._template, self._tries = None, LEARNING_TRIES

    def _check_end(self) -> None:
        """The body ended without ``[DONE]``: a cut reply unless its finish reason came."""
        if self._any and not self._ended:
            raise openai.APIConnectionError(message=CUT_MESSAGE, request=self.response.request)

    def _chunks(self, events: list[SseEvent], merger: ChunkMerger) -> Iterator[Any]:
        """The chunks ``events`` complete, merged; ``None`` for ``[DONE]`` (and nothing after
        it). An error event or a broken one raises once the chunks before it are out."""
        add, add_content = merger.add_in_full, merger.add_content
        at, count = 0, len(events)
        while at < count:
            at = self._by_template(events, at, merger)
            if at == count:
                return
            name, data = events[at]
            at += 1
            if name == "error":
                yield from merger.take()
                raise self._api_error(error_of(data))
            if data.startswith(b"[DONE]"):
                yield from merger.take()
                yield None
                return
            try:
                chunk = parse_json(data)
            except ValueError:
                yield from merger.take()
                raise
            # the usual chunk (one choice's text, no finish reason, no error): joins the run
            content = content_only(chunk)
            if content is not None and chunk.get("object") != "error":
                self._any = True
                self._learn(data, content)
                done = add_content(chunk, content)
                if done:
                    yield from done
                continue
            if type(chunk) is dict and (chunk.get("error") or chunk.get("object") == "error"):
                yield from merger.take()
                raise self._api_error(chunk.get("error") or chunk)
            problem = shape_problem(chunk)
            if problem is not None:
                yield from merger.take()
                raise MalformedAnswer(problem)
            self._any = True
            self._note_end(chunk)
            done = add(chunk)  # most chunks join the run: nothing is complete yet
            if done:
                yield from done

    def _by_template(self, events: list[SseEvent], at: int, merger: ChunkMerger) -> int:
        """The usual chunks from ``at`` on, within a run, read from their bytes by the reply's
        template (the same texts as read whole) and added; where the first event left to read
        whole is."""
        template = self._template
        if template is None or not merger.running:
            return at
        texts, end = template.texts_of(events, at)
        if end > at and merger.extend_run(texts, end - at):
            self._any = True
            return end
        return at

    def _note_end(self, chunk: dict[str, Any]) -> None:
        """Note whether ``chunk`` says the reply's finish reason (once one has, no more)."""
        choices = chunk.get("choices")
        if (
            not self._ended
            and type(choices) is list
            and choices
            and (len(choices) > 1 or (type(choices[0]) is dict and choices[0].get("finish_reason")))
        ):  # the usual content chunk says none: one look at it
            self._ended = finishes_the_reply(choices)

    def _learn(self, data: bytes, content: str) -> None:
        """Learn the template of ``data``, a usual chunk, when the one in use (if any) does
        not fit it, while tries are left; the one in use stays when none is learnt."""
        template = self._template
        if self._tries and (template is None or template.content_of(data) is None):
            self._tries -= 1
            self._template = ContentTemplate.learn(data, content) or template

    def _api_error(self, error: Any) -> openai.APIError:
        message = error.get("message") if isinstance(error, dict) else None
        if not message or not isinstance(message, str):
            message = "An error occurred during streaming"
        return openai.APIError(message=message, request=self.response.request, body=error)
