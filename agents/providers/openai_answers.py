"""Checks that a provider's 200 answer to a chat-completions request is a chat completion.

A ``base_url`` that points at a web server's page, a proxy's login page or a wrong path often
answers 200 with HTML or nothing at all. The SDK then parses no event from the body and the
reply ends with langchain's bare ``ValueError`` ("No generation chunks were returned"). An
HTTP response hook on the provider's clients looks at the answer's content type first and
raises :class:`NotAChatCompletion`, naming what came back (content type and the start of the
body); ``agents.providers.errors`` turns it into one sentence telling the user to check
``base_url``. A JSON body that says an error (``{"error": ...}``, vLLM's ``object: "error"``)
raises that error instead, as a stream that says one does; a whole chat completion sent for a
streamed request (a server that ignored ``stream``) raises :class:`WholeCompletion`, which the
model reads as the stream's one chunk: the reply, not a misconfigured address. A stream that is an event stream but holds no chunk (empty, or only ``[DONE]``)
still ends in langchain's ``ValueError``, which ``agents.providers.errors`` recognises.
"""

from __future__ import annotations

import json
import re
from typing import Any

import openai

from agents.providers.chunk_shape import fields_problem

NO_CHUNKS = "No generation chunks were returned"
"""The start of langchain's ``ValueError`` for a stream that held no chunk."""

_PEEK_BYTES = 2048
_WHOLE_BYTES = 8 << 20
"""The most of a JSON answer to a streamed request read to see whether it is a reply."""
_SHOWN_CHARS = 60
_TITLE = re.compile(rb"<title[^>]*>(.*?)</title", re.IGNORECASE | re.DOTALL)


class NotAChatCompletion(openai.OpenAIError):
    """A 200 answer whose body is not a chat completion (the SDK passes ``OpenAIError``
    subclasses through unwrapped). ``what`` describes it: content type and first words."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"the provider answered with something that is not a chat completion: {what}"
        )
        self.what = what


class MalformedAnswer(openai.OpenAIError):
    """A streamed chunk, or a whole completion's reply, not in the shape of one (see
    :mod:`agents.providers.chunk_shape`): what is wrong with it."""


class WholeCompletion(openai.OpenAIError):
    """A whole chat completion a server sent for a streamed request (it ignored ``stream``):
    the reply, read as a stream of one chunk (``data``: the completion's JSON)."""

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__("the server sent a whole completion to a streamed request")
        self.data = data


class NoReplyInCompletion(openai.OpenAIError):
    """A whole chat completion with no choice 0 whose ``message`` is an object: nothing in it
    is this request's reply."""


def check_completion(data: Any) -> None:
    """Raise what a 200 whole answer says instead of a reply: its error
    (:func:`error_of_completion`), or :class:`NoReplyInCompletion` when no choice 0 of it has a
    ``message`` object."""
    error = error_of_completion(data)
    if error is not None:
        raise error
    choices = data.get("choices") if isinstance(data, dict) else None
    for choice in choices if isinstance(choices, list) else ():
        if isinstance(choice, dict) and choice.get("index", 0) in (0, None):
            message = choice.get("message")
            if isinstance(message, dict):
                problem = fields_problem(message)
                if problem is not None:
                    raise MalformedAnswer(problem)
                return
            break
    raise NoReplyInCompletion("the chat completion holds no reply")


def error_of_completion(data: Any) -> openai.APIError | None:
    """The error a 200 whole answer says instead of a reply (an ``error`` field, or vLLM's
    ``object: "error"``), as the SDK's stream raises one said mid-stream; ``None`` when it says
    none."""
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if not error and data.get("object") != "error":
        return None
    body = error if isinstance(error, dict) else data
    message = body.get("message") if isinstance(body, dict) else None
    if not isinstance(message, str) or not message:
        message = str(error) if isinstance(error, str) and error else "An error occurred"
    request: Any = None  # the answer's request is not at hand where a completion is read
    return openai.APIError(message=message, request=request, body=body)


def _is_chat_request(request: Any) -> bool:
    path = str(request.url.path)
    return bool(request.method == "POST" and path.rstrip("/").endswith("/chat/completions"))


def _expected_type(request: Any) -> str:
    try:
        body = json.loads(request.content or b"{}")
    except (ValueError, RuntimeError):  # RuntimeError: a streamed request body, never ours
        return "text/event-stream"
    return (
        "text/event-stream" if isinstance(body, dict) and body.get("stream") else "application/json"
    )


def _describe(content_type: str, head: bytes) -> str:
    kind = content_type.split(";")[0].strip() or "no content type"
    if not head.strip():
        return f"{kind} with an empty body"
    title = _TITLE.search(head)
    text = (title.group(1) if title else head).decode("utf-8", "replace")
    text = " ".join(text.split())
    if len(text) > _SHOWN_CHARS:
        text = text[: _SHOWN_CHARS - 1] + "…"
    return f"{kind} starting “{text}”" if not title else f"{kind}, a page titled “{text}”"


def _verdict(response: Any) -> str | None:
    """None when ``response`` may be a chat completion, else the content type to report."""
    if response.status_code != 200 or not _is_chat_request(response.request):
        return None
    content_type = response.headers.get("content-type", "")
    if content_type.lower().startswith("text/event-stream"):
        return None  # a stream: the SDK reads it (an empty one ends in NO_CHUNKS)
    expected = _expected_type(response.request)  # parses the request: off the streaming path
    return None if content_type.lower().startswith(expected) else content_type


async def check_answer_async(response: Any) -> None:
    """The async client's response hook (see the module docstring)."""
    content_type = _verdict(response)
    if content_type is None:
        return
    head = b""
    limit = _limit(content_type)
    async for piece in response.aiter_bytes():
        head += piece
        if len(head) >= limit:
            break
    await response.aclose()
    raise _not_a_reply(content_type, head)


def check_answer(response: Any) -> None:
    """The sync client's response hook (see the module docstring)."""
    content_type = _verdict(response)
    if content_type is None:
        return
    head = b""
    limit = _limit(content_type)
    for piece in response.iter_bytes():
        head += piece
        if len(head) >= limit:
            break
    response.close()
    raise _not_a_reply(content_type, head)


def _limit(content_type: str) -> int:
    return _WHOLE_BYTES if "json" in content_type.lower() else _PEEK_BYTES


def _not_a_reply(content_type: str, head: bytes) -> openai.OpenAIError:
    """What a 200 answer that is not the reply asked for says: the error its JSON body says
    (an error said with a 200, as some proxies answer a streamed request: the error itself,
    tried again when transient, never "check base_url"), a whole completion (a server that
    ignored ``stream``: :class:`WholeCompletion`, the reply), else
    :class:`NotAChatCompletion`."""
    if len(head) < _WHOLE_BYTES and "json" in content_type.lower():
        try:
            data = json.loads(head)
        except ValueError:
            data = None
        error = error_of_completion(data)
        if error is not None:
            return error
        if isinstance(data, dict) and isinstance(data.get("choices"), list):
            return WholeCompletion(data)
    return NotAChatCompletion(_describe(content_type, head[:_PEEK_BYTES]))
