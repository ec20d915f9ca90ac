"""A call that must answer in words (the summary of older turns, paper-pilot's draft,
atom-developer's drafts) reads its answer by one rule (:func:`agents.reply_outcome.written_text`):
the answer's visible text, or the call ends marked. Generated replies in every framing
(``tests.support.wire_streams``), and the summary over HTTP through the real client: tool calls
alone (no tools were offered) or content parts never become a summary of nothing or of a
list's ``str``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from langchain_core.messages import AIMessage

from agents.older_turns_summary import summarise_older
from agents.providers import ChatModelHandle
from agents.reply_outcome import MarkedReply, reply_outcome, written_text
from storage.sqlite_store import SqliteConversationStore
from tests.providers.test_wire_normalizer import merged
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.wire_streams import SentReply, replies


@settings(max_examples=200, deadline=None)
@given(case=replies())
def test_a_written_answer_is_its_visible_text_or_the_call_ends_marked(
    case: tuple[SentReply, list[dict[str, Any]]],
) -> None:
    _sent, chunks = case
    message = merged(chunks)
    outcome = reply_outcome(message)
    if outcome.marked or not outcome.text:  # marked, or nothing written (calls alone)
        with pytest.raises(MarkedReply, match=r"\.$"):
            written_text(message, "summary")
        return
    text = written_text(message, "summary")
    assert text == outcome.text
    assert text.strip() == text
    assert text


def _branch(store: SqliteConversationStore, turns: int) -> str:
    conversation = store.create_conversation("mediator", "test")
    parent = None
    for n in range(turns):
        user = store.add_message(conversation.id, "user", f"question {n}", parent)
        parent = store.add_message(conversation.id, "assistant", f"answer {n}", user.id).id
    assert parent is not None
    return parent


@pytest.mark.parametrize(
    "reply",
    [
        Reply(tool_calls=[ToolCall("search", {"q": "x"})]),
        Reply(
            completion={
                "role": "assistant",
                "content": [{"type": "text", "text": " "}],
                "finish_reason": "stop",
            }
        ),
        Reply(content="<think>the summary would say</think>"),
    ],
    ids=["calls alone", "blank content parts", "only thinking"],
)
async def test_a_summary_with_no_words_is_marked_and_stores_nothing(
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    store: SqliteConversationStore,
    reply: Reply,
) -> None:
    leaf = _branch(store, 6)
    fake_openai.script(reply)
    model = openai_model().model
    if reply.completion is not None:
        model = model.model_copy(update={"streaming": False})
    before = [r.meta for r in store.path_to_root(leaf)]

    with pytest.raises(MarkedReply):
        await summarise_older(store, model, leaf)

    assert [r.meta for r in store.path_to_root(leaf)] == before


async def test_a_summary_in_content_parts_stores_their_words(
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
    store: SqliteConversationStore,
) -> None:
    leaf = _branch(store, 6)
    parts = [{"type": "text", "text": "They asked six questions."}]
    fake_openai.script(
        Reply(completion={"role": "assistant", "content": parts, "finish_reason": "stop"})
    )
    model = openai_model().model.model_copy(update={"streaming": False})

    record = await summarise_older(store, model, leaf)

    assert record is not None
    assert record.meta["summary"] == written_text(AIMessage(content=parts))  # type: ignore[arg-type]
    assert "{" not in record.meta["summary"]
