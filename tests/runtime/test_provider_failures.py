"""Every provider fault ends the turn with one RunError and a reply record marked error."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.errors import (
    ProviderAuthError,
    ProviderBadResponseError,
    ProviderNetworkError,
    ProviderRateLimitError,
    ProviderServerError,
    ProviderTimeoutError,
    WeaverError,
)
from agents.providers import ChatModelHandle
from agents.runtime.agent_runtime import AgentRuntime
from agents.runtime.events import RunError, RunFinished, TokenDelta, TurnStarted
from storage.models import MessageStatus
from storage.sqlite_store import SqliteConversationStore
from tests.runtime.helpers import active_leaf_id, new_turn, of_type, run
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.wire_streams import sse_body

pytestmark = pytest.mark.usefixtures("researcher")

_SSE = "text/event-stream"


def _chunk(text: str) -> dict[str, object]:
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": text},
            "finish_reason": None}]}  # fmt: skip


FAULTS = [
    (Reply.unauthorized(), ProviderAuthError),
    (Reply.rate_limited(retry_after=70), ProviderRateLimitError),  # longer than a retry waits
    (Reply.server_error(), ProviderServerError),
    (Reply.reset_mid_stream("This reply is cut off here", after=3), ProviderNetworkError),
    (Reply.malformed_chunk("Half a reply then more", after=2), ProviderBadResponseError),
    (Reply.slow_first_byte(3.0), ProviderTimeoutError),
    # A body that ends cleanly before its finish reason and [DONE]: cut, not a shorter reply.
    (Reply.raw(sse_body([_chunk("Half a"), _chunk(" reply")], done=False), _SSE),
     ProviderNetworkError),
    # Errors said mid-stream in the shapes servers use besides OpenAI's.
    (Reply.raw(sse_body([_chunk("Half"), 'event: error\ndata: {"message": "Overloaded"}']), _SSE),
     ProviderServerError),
    (Reply.raw(sse_body([_chunk("Half"), {"object": "error", "message": "Engine died."}]), _SSE),
     ProviderServerError),
]  # fmt: skip


@pytest.mark.parametrize(("fault", "error_type"), FAULTS, ids=lambda v: getattr(v, "__name__", ""))
async def test_provider_fault_becomes_run_error_and_error_record(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    fault: Reply,
    error_type: type[WeaverError],
) -> None:
    fake_openai.script(fault)
    user = new_turn(store, "researcher", "hello")

    events = await run(runtime, user, openai_model(timeout=0.5))

    assert isinstance(events[0], TurnStarted)
    last = events[-1]
    assert isinstance(last, RunError), events
    assert not of_type(events, RunFinished)
    assert isinstance(last.error, error_type), last.error
    sentence = last.error.user_message
    assert sentence
    assert "\n" not in sentence
    assert "Traceback" not in sentence
    assert "sk-test-not-a-real-key" not in sentence
    assert last.reply_id is not None
    reply = store.get_message(last.reply_id)
    assert reply.status is MessageStatus.ERROR
    assert reply.meta["error"] == sentence
    streamed = "".join(e.text for e in of_type(events, TokenDelta))
    assert reply.content == streamed  # whatever arrived before the fault is kept
    assert active_leaf_id(store, user.conversation_id) == reply.id
    if error_type is ProviderRateLimitError:
        assert last.error.retry_after == 70


async def test_fault_in_the_second_round_keeps_the_first_rounds_records(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    fake_openai.script(
        Reply(tool_calls=[ToolCall("search_knowledge_base", {"query": "ReAct"}, id="call_r")]),
        Reply.server_error(500),
    )
    user = new_turn(store, "researcher", "ReAct?")

    events = await run(runtime, user, openai_model())

    failed = events[-1]
    assert isinstance(failed, RunError)
    assert failed.reply_id is not None
    path = store.path_to_root(failed.reply_id)
    assert [(r.role, r.status) for r in path] == [
        ("user", MessageStatus.COMPLETE),
        ("assistant", MessageStatus.COMPLETE),
        ("tool", MessageStatus.COMPLETE),
        ("assistant", MessageStatus.ERROR),
    ]


async def test_unknown_profile_is_a_run_error_not_an_exception(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    conversation = store.create_conversation("no-such-profile", "x")
    user = store.add_message(conversation.id, "user", "hi", None)

    events = await run(runtime, user, openai_model())

    assert len(events) == 1
    assert isinstance(events[0], RunError)
    assert isinstance(events[0].error, WeaverError)
    assert "no-such-profile" in events[0].error.user_message


async def test_a_model_without_tools_is_named_in_one_sentence_that_says_what_to_do(
    store: SqliteConversationStore,
    runtime: AgentRuntime,
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    """The refusal is met by emulating the tools; a server that refuses that request too
    ends the turn in the sentence."""
    refusal = "registry.ollama.ai/library/fake-model does not support tools"
    fake_openai.script(Reply.http_error(400, refusal), Reply.http_error(400, refusal))
    user = new_turn(store, "researcher", "find the notes on caching")

    events = await run(runtime, user, openai_model())

    last = events[-1]
    assert isinstance(last, RunError), events
    sentence = last.error.user_message
    assert "'fake-model' does not support tools" in sentence
    assert "pick a model" in sentence
    assert "\n" not in sentence
    assert sentence.endswith(".")
