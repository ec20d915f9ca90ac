"""Every way the app calls a model ends the same provider answer the same way.

The same generated answers (``tests.support.wire_streams``: any framing of content, reasoning,
refusal, tool calls and finish reason) are sent by the local server over real HTTP, ended one
of the ways a body ends (``[DONE]``; the body's end after the finish reason; a cut before the
finish reason and ``[DONE]``; an error said mid-stream), and read through each path a model
call takes: ``astream``, ``ainvoke``, the folded call every node uses
(:func:`agents.graph.folded_call.call_model_folded`), the sync ``stream`` and ``invoke``, and
a whole (non-streamed) completion. Each path's outcome (the reply's
:func:`agents.reply_outcome.reply_outcome` kind and text, or the typed error it translates to)
is the same, and is what the answer says: a cut is never a shorter success, an error never a
reply.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from pydantic import SecretStr

from agents.errors import ProviderBadResponseError, ProviderNetworkError, ProviderServerError
from agents.graph.folded_call import call_model_folded
from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.providers.transient_retry import MAX_TRIES
from agents.reply_outcome import FILTERING, TRUNCATING, reply_outcome
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.wire_streams import SentReply, replies, sse_body

Outcome = tuple[str, str]
"""``(reply kind, visible text)`` or ``("error", error class name)``."""
ENDINGS = ("done", "body end", "cut", "error", "malformed")
WRONG: st.SearchStrategy[Any] = st.one_of(
    st.integers(), st.booleans(), st.lists(st.integers(), max_size=2), st.just({})
)
"""JSON values of a type no field of a chunk has where they are put."""
MALFORMED = st.one_of(
    WRONG.filter(lambda v: not isinstance(v, dict)),
    WRONG.map(lambda v: {"choices": v if not isinstance(v, list) else 5}),
    WRONG.map(lambda v: {"choices": [v if v != {} else 5]}),
    WRONG.filter(lambda v: v != {}).map(lambda v: {"choices": [{"index": 0, "delta": v}]}),
    st.tuples(st.sampled_from(["content", "role", "refusal", "reasoning_content"]), WRONG)
    .filter(lambda t: not isinstance(t[1], list) or t[0] != "content")
    .map(lambda t: {"choices": [{"index": 0, "delta": {t[0]: t[1]}}]}),
    WRONG.filter(lambda v: not isinstance(v, list)).map(
        lambda v: {"choices": [{"index": 0, "delta": {"tool_calls": v}}]}
    ),
    WRONG.filter(lambda v: v != {}).map(
        lambda v: {"choices": [{"index": 0, "delta": {"tool_calls": [{"function": v}]}}]}
    ),
)
"""A chunk not in a chat-completion chunk's shape (see ``stream_rules.shape_problem``)."""
ERRORS: list[dict[str, Any] | str] = [
    {"error": {"message": "Provider disconnected", "code": 502}},
    {"object": "error", "message": "The engine died.", "type": "InternalServerError"},
    'event: error\ndata: {"error": {"message": "Overloaded"}}',
    "event: error\ndata: upstream timed out",
]
_HTTP = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as running:
        yield running


def _handle(server: FakeOpenAI) -> ChatModelHandle:
    config = ProviderConfig(
        provider="openai-compatible",
        base_url=server.base_url,
        api_key=SecretStr("sk-test"),
        model="fake-model",
        timeout=5.0,
    )
    return make_chat_model(config)


def _outcome(message: BaseMessage) -> Outcome:
    outcome = reply_outcome(message)
    return outcome.kind, outcome.text


async def _astream(model: Any) -> BaseMessage:
    total: AIMessageChunk | None = None
    async for chunk in model.astream("hi"):
        total = chunk if total is None else total + chunk
    assert total is not None
    return total


def _stream(model: Any) -> BaseMessage:
    total: AIMessageChunk | None = None
    for chunk in model.stream("hi"):
        total = chunk if total is None else total + chunk
    assert total is not None
    return total


def _read(server: FakeOpenAI, path: str) -> Outcome:
    """The outcome of one call of ``path`` (the server scripted by the caller)."""
    handle = _handle(server)
    model: Any = handle.model
    if path == "whole":
        model = model.model_copy(update={"streaming": False})
    sync: dict[str, Callable[[], BaseMessage]] = {
        "stream": lambda: _stream(model),
        "invoke": lambda: model.invoke("hi"),
    }

    async def run() -> BaseMessage:
        try:
            if path == "astream":
                return await _astream(model)
            if path == "folded":
                return await call_model_folded(model, [HumanMessage("hi")])
            answer: BaseMessage = await model.ainvoke("hi")
            return answer
        finally:
            await handle.http_async_client.aclose()

    try:
        message = sync[path]() if path in sync else asyncio.run(run())
    except Exception as exc:  # noqa: BLE001 (checked: one typed error, the same on every path)
        return "error", type(handle.translate_error(exc)).__name__
    return _outcome(message)


def expected(sent: SentReply) -> str:
    """The kind the answer says it is, whatever the path (the outcome's rules as a spec)."""
    if sent.refusal.strip():
        return "refused"
    if sent.finish_reason in FILTERING:
        return "filtered"
    if sent.finish_reason in TRUNCATING:
        return "truncated"
    if sent.calls:
        return "calls"
    return "complete" if sent.content.strip() else "empty"


def _finish_position(events: list[dict[str, Any]]) -> int:
    for position, event in enumerate(events):
        for choice in event.get("choices") or ():
            if choice.get("index", 0) == 0 and choice.get("finish_reason") is not None:
                return position
    return len(events)


def completion_of(sent: SentReply) -> dict[str, Any]:
    """The non-streamed ``choices[0].message`` (with ``finish_reason``) of ``sent``."""
    content = sent.content
    message: dict[str, Any] = {"role": "assistant"}
    if sent.reasoning and sent.reasoning_way == "think":
        content = f"<think>{sent.reasoning}</think>{content}"
    elif sent.reasoning:
        message["reasoning_content"] = sent.reasoning
    message["content"] = content or None
    if sent.refusal:
        message["refusal"] = sent.refusal
    if sent.calls:
        message["tool_calls"] = [
            {
                "id": f"c{n}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for n, (name, args) in enumerate(sent.calls)
        ]
    message["finish_reason"] = sent.finish_reason
    return message


def _whole_choice(sent: SentReply) -> dict[str, Any]:
    message = completion_of(sent)
    finish = message.pop("finish_reason")
    return {"index": 0, "message": message, "finish_reason": finish}


@_HTTP
@given(
    case=replies(),
    ending=st.sampled_from(ENDINGS),
    where=st.floats(0, 1, exclude_max=True),
    error=st.sampled_from(ERRORS),
    malformed=MALFORMED,
    before=st.sampled_from(["nothing", "rate limited", "overloaded", "whole for a stream"]),
)
def test_every_call_path_ends_the_same_answer_the_same_way(
    server: FakeOpenAI,
    case: tuple[SentReply, list[dict[str, Any]]],
    ending: str,
    where: float,
    error: dict[str, Any] | str,
    malformed: Any,
    before: str,
) -> None:
    """``before``: the first try fails transiently (every path tries again, nothing shown
    yet), or the server answers the stream with the whole completion (a server that ignores
    ``stream``: the reply on every path)."""
    sent, events = case
    body: list[dict[str, Any] | str] = list(events)
    done = ending == "done"
    want: Outcome | None = None
    if ending == "cut":
        finish = _finish_position(events)
        body = list(events[: max(1, int(where * finish))])
        if finish == 0:
            return  # the first chunk says the finish: nothing comes before it
        want = ("error", ProviderNetworkError.__name__)
    elif ending == "error":
        at = int(where * len(events))
        body = [*events[:at], error, *events[at:]]
        done = True
        want = ("error", ProviderServerError.__name__)
    elif ending == "malformed":
        at = int(where * len(events))
        body = [*events[:at], "data: " + json.dumps(malformed), *events[at:]]
        done = True
        want = ("error", ProviderBadResponseError.__name__)
    elif ending == "body end" and sent.finish_reason is None:
        want = ("error", ProviderNetworkError.__name__)
    raw = sse_body(body, done=done)
    replies_: list[Reply] = [Reply.raw(raw, "text/event-stream")] * MAX_TRIES
    if before == "rate limited":
        replies_ = [Reply.rate_limited(retry_after=1), *replies_]
    elif before == "overloaded":
        replies_ = [Reply.http_error(529, "Overloaded"), *replies_]
    elif before == "whole for a stream" and want is None:
        whole = {"id": "w", "object": "chat.completion", "choices": [_whole_choice(sent)]}
        replies_ = [Reply.raw(json.dumps(whole).encode(), "application/json")]
    paths = ["astream", "ainvoke", "folded", "stream", "invoke"]
    got: dict[str, Outcome] = {}
    for path in paths:
        server.reset()  # the same body on every try: an early error is tried again
        server.script(*replies_)
        got[path] = _read(server, path)
    if want is None:
        server.reset()
        server.script(Reply(completion=completion_of(sent)))
        got["whole"] = _read(server, "whole")
    first = got["astream"]
    assert all(outcome == first for outcome in got.values()), got
    if want is not None:
        assert first == want
    else:
        assert first[0] == expected(sent)
