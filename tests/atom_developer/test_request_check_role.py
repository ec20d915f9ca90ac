"""atom-developer's request check on the ``router`` role's model: over real HTTP with the real
``ChatOpenAI`` client, a message with no sample is checked by the role's model when the
settings give it one (the draft stays on the turn's model), and by the turn's model, said
once on the ``read_request`` line, when the role's server cannot be reached."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agents.profiles.atom_developer.graph import GUIDE
from agents.providers import ChatModelHandle
from agents.runtime import events as ev
from agents.runtime.agent_runtime import AgentRuntime
from agents.structured import MEMO
from storage.sqlite_store import SqliteConversationStore
from tests.atom_developer.graph_support import PROFILE
from tests.atom_developer.test_graph_provider import GOOD, answer
from tests.atom_developer.test_request_on_provider import RUSSIAN, check
from tests.support.fake_openai import FakeOpenAI

RUSSIAN_THANKS = "Спасибо, всё понятно!"


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    MEMO.forget()


@pytest.fixture
def router_server() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(default=None).start()
    try:
        yield server
    finally:
        server.stop()


def router_role(base_url: str) -> dict[str, Any]:
    return {"router": {"name": "openai-compatible", "model": "small-router",
                       "base_url": base_url, "api_key": "sk-router"}}  # fmt: skip


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run(
    runtime: AgentRuntime, store: SqliteConversationStore, text: str, handle: ChatModelHandle
) -> tuple[list[Any], Any]:
    conversation = store.create_conversation(PROFILE, "atoms")
    user = store.add_message(conversation.id, "user", text, None)
    events = [e async for e in runtime.run_turn(conversation_id=conversation.id,
              user_message_id=user.id, model=handle)]  # fmt: skip
    finished = [e for e in events if isinstance(e, ev.RunFinished)]
    assert finished, [e.error.user_message for e in events if isinstance(e, ev.RunError)]
    return events, store.get_message(finished[-1].leaf_id)


def fallbacks(events: list[Any]) -> list[str]:
    return [e.text for e in events
            if isinstance(e, ev.NodeStatus) and "router model failed" in e.text]  # fmt: skip


async def test_the_request_check_asks_the_router_role_and_the_draft_the_turns_model(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    router_server: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    runtime.profile_settings = {"roles": router_role(router_server.base_url)}
    router_server.script(check(True))
    fake_openai.script(answer(GOOD))

    events, reply = await run(runtime, store, RUSSIAN, openai_model())

    assert [b["model"] for b in router_server.chat_bodies] == ["small-router"]
    assert "AtomRequestCheck" in str(router_server.chat_bodies[0]["tools"])
    assert [b["model"] for b in fake_openai.chat_bodies] == ["fake-model"]  # the draft only
    assert "AtomRequestCheck" not in str(fake_openai.chat_bodies[0].get("tools"))
    assert "```python" in reply.content
    assert fallbacks(events) == []


async def test_an_unreachable_router_role_leaves_the_check_to_the_turns_model_said_once(
    atoms: tuple[AgentRuntime, SqliteConversationStore],
    fake_openai: FakeOpenAI,
    openai_model: Callable[..., ChatModelHandle],
) -> None:
    runtime, store = atoms
    runtime.profile_settings = {"roles": router_role(f"http://127.0.0.1:{closed_port()}/v1")}
    fake_openai.script(check(False))

    events, reply = await run(runtime, store, RUSSIAN_THANKS, openai_model())

    assert len(fallbacks(events)) == 1
    assert [b["model"] for b in fake_openai.chat_bodies] == ["fake-model"]
    assert "AtomRequestCheck" in str(fake_openai.chat_bodies[0]["tools"])
    assert reply.content == GUIDE  # the turn's model said the message asks for no atom
