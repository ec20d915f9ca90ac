"""On a provider's model the model decides whether a message asks for an atom (in any
language), and a follow-up is drafted from the branch's last draft and sample: the real
ChatOpenAI client against the local OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.profiles.atom_developer.graph import GUIDE
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import ERROR_SAMPLE, PROFILE
from tests.atom_developer.test_graph_provider import GOOD, REQUEST, answer
from tests.support.fake_openai import FakeOpenAI, Reply, ToolCall
from tests.support.structured_answers import message_texts

RUSSIAN = "Извлеки код ошибки 500 или 503 из строк журнала сервера"


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


def check(asks: bool) -> Reply:
    return Reply(tool_calls=[ToolCall("AtomRequestCheck", {"asks_for_atom": asks})])


async def turn(
    runtime: AgentRuntime, store: SqliteConversationStore, conversation_id: str, text: str,
    handle: ChatModelHandle,
) -> Any:  # fmt: skip
    leaf = store.active_leaf(conversation_id)
    user = store.add_message(conversation_id, "user", text, leaf.id if leaf else None)
    events = [
        e
        async for e in runtime.run_turn(
            conversation_id=conversation_id, user_message_id=user.id, model=handle
        )
    ]
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e.error.user_message for e in events if isinstance(e, ev.RunError)]
    return store.get_message(finished[-1].leaf_id)


def bodies(fake: FakeOpenAI) -> list[dict[str, Any]]:
    return [r.body for r in fake.chat_requests if r.body]


async def test_a_request_in_russian_is_drafted_because_the_model_says_it_asks_for_an_atom(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(check(True), answer(GOOD))
    conversation = store.create_conversation(PROFILE, "atoms")
    reply = await turn(runtime, store, conversation.id, RUSSIAN, openai_model())

    asked, drafted = bodies(fake_openai)[:2]
    assert asked["tools"][0]["function"]["name"] == "AtomRequestCheck"
    assert RUSSIAN in message_texts(asked)
    last = drafted["messages"][-1]["content"]
    assert last.startswith("Stage: draft")
    assert f"Intent: {RUSSIAN}" in last
    assert reply.content != GUIDE
    assert "```python" in reply.content


async def test_a_message_the_model_says_asks_for_no_atom_gets_the_guide(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    fake_openai.script(check(False))
    conversation = store.create_conversation(PROFILE, "atoms")
    reply = await turn(runtime, store, conversation.id, "Спасибо, всё понятно!", openai_model())

    assert reply.content == GUIDE
    assert len(fake_openai.chat_requests) == 1


async def test_a_follow_up_is_drafted_from_the_last_draft_and_its_sample(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    handle = openai_model()
    conversation = store.create_conversation(PROFILE, "atoms")
    fake_openai.script(answer(GOOD))
    await turn(runtime, store, conversation.id, REQUEST, handle)

    fake_openai.script(check(True), answer(GOOD))
    await turn(runtime, store, conversation.id, "make it handle 504 as well", handle)

    asked, drafted = bodies(fake_openai)[1:3]
    assert asked["tools"][0]["function"]["name"] == "AtomRequestCheck"
    last = drafted["messages"][-1]["content"]
    assert last.startswith("Stage: draft")
    assert "make it handle 504 as well" in last
    assert ERROR_SAMPLE.splitlines()[-1] in last  # the earlier sample
    assert "Previous code" in last
    assert GOOD.strip().splitlines()[-1] in last  # the last draft


async def test_offline_a_follow_up_without_log_words_still_drafts_from_the_last_sample(
    atoms: tuple[AgentRuntime, SqliteConversationStore], tmp_path: Path
) -> None:
    from tests.atom_developer.graph_support import offline_handle

    runtime, store = atoms
    conversation = store.create_conversation(PROFILE, "atoms")
    await turn(runtime, store, conversation.id, REQUEST, offline_handle())
    reply = await turn(runtime, store, conversation.id, "make it handle 504 as well", offline_handle())  # fmt: skip
    assert reply.content != GUIDE
    assert "```python" in reply.content
