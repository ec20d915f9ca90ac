"""A tool call runs only on arguments that arrived as one JSON object, however the reply came:
generated arguments (objects, and what is not one: arrays, ``null``, strings, numbers, booleans,
cut objects) sent by the local server as a whole completion and as a stream, read by the real
client stack over HTTP, as JSON text or as the JSON value itself. An object is a call with those arguments; anything else is a broken
call holding the raw text, never a call on ``{}`` and never an error of the client library."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from agents.graph.folded_call import call_model_folded
from agents.providers.call_arguments import is_whole
from tests.providers.test_wire_streams_http import _model
from tests.support.fake_openai import FakeOpenAI, Reply

OBJECTS = st.dictionaries(st.sampled_from(["path", "q"]), st.integers(0, 9) | st.text(max_size=4))
NOT_OBJECTS = st.one_of(
    st.lists(st.integers(0, 9), max_size=3).map(json.dumps),
    st.sampled_from(["null", "true", "0", "1.5", '"x"', '""', "{", '{"q": ', '{"q": "a', "[{}"]),
    st.text(alphabet="ab12", min_size=1, max_size=4).map(json.dumps),
    st.dictionaries(st.sampled_from(["path", "q"]), st.integers(0, 9), min_size=1)
    .map(json.dumps)
    .flatmap(lambda text: st.integers(1, len(text) - 1).map(lambda cut: text[:cut])),
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as running:
        yield running


def _call(arguments: str | Any, index: bool) -> dict[str, Any]:
    call = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": arguments}}
    return {"index": 0, **call} if index else call


async def _read(server: FakeOpenAI, how: str) -> AIMessage:
    handle = _model(server)
    try:
        model = handle.model
        if how == "completion":
            answer = await model.model_copy(update={"streaming": False}).ainvoke("hi")
        else:
            answer = await call_model_folded(model, [HumanMessage("hi")])
        assert isinstance(answer, AIMessage)
        return answer
    finally:
        await handle.http_async_client.aclose()


def _script(server: FakeOpenAI, arguments: str | Any, how: str, legacy: bool) -> None:
    server.reset()
    if how == "completion":
        message: dict[str, Any] = {"role": "assistant", "content": None,
                                   "finish_reason": "tool_calls"}  # fmt: skip
        if legacy:
            message["function_call"] = _call(arguments, False)["function"]
        else:
            message["tool_calls"] = [_call(arguments, False)]
        server.script(Reply(completion=message))
        return
    delta: dict[str, Any] = (
        {"function_call": _call(arguments, True)["function"]}
        if legacy
        else {"tool_calls": [_call(arguments, True)]}
    )
    chunk = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta,
             "finish_reason": "tool_calls"}]}  # fmt: skip
    server.script(Reply(events=[chunk]))


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


_HTTP = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_HTTP
@given(
    arguments=st.one_of(OBJECTS.map(json.dumps), NOT_OBJECTS),
    how=st.sampled_from(["completion", "stream"]),
    legacy=st.booleans(),
    as_value=st.booleans(),
)
def test_a_call_runs_only_on_one_json_object(
    server: FakeOpenAI, arguments: str, how: str, legacy: bool, as_value: bool
) -> None:
    sent: str | Any = arguments
    if as_value and is_json(arguments):
        # Sent as the JSON value itself, not its text (as some servers do): read as its text;
        # a string is the text itself, and null is no arguments, as "" is.
        sent = json.loads(arguments)
        if sent is None:
            arguments = ""
        else:
            arguments = sent if isinstance(sent, str) else json.dumps(sent, ensure_ascii=False)
    _script(server, sent, how, legacy)
    message = asyncio.run(_read(server, how))

    if is_whole(arguments):
        assert [(c["name"], c["args"]) for c in message.tool_calls] == [
            ("search", json.loads(arguments) if arguments else {})
        ]
        assert not message.invalid_tool_calls
    else:
        assert message.tool_calls == []
        assert [c["args"] for c in message.invalid_tool_calls] == [arguments]
        assert all(c["id"] for c in message.invalid_tool_calls)
