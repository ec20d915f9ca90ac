"""The ``summary`` role: every summary of older turns (by hand or automatic, both through the
controller's ``summarise``) is written by the role's model when the settings give it one, over
real HTTP with the real ``ChatOpenAI`` client, and by the turn's model otherwise. A role model
that fails (unreachable, or its summary empty) leaves the summary to the turn's model (an
extract, when that is the offline demo), and the summary's record says so in one sentence.

Every combination of the role (unset, working, unreachable, answering empty) and the turn's
model (a provider's, the offline demo) is run."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from agents.context import SUMMARY_PROMPT
from agents.providers import ChatModelHandle, ProviderConfig, make_chat_model
from agents.runtime.events import RecordSaved
from storage.sqlite_store import SqliteConversationStore
from tests.chat_controller.drive import controller, offline
from tests.support.fake_openai import FakeOpenAI, Reply
from weaver_tui.core.chat_state import ChatState

RoleState = Literal["unset", "working", "unreachable", "empty"]
SUMMARY = "- the user asked eight things and was answered"


@pytest.fixture
def role_server() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI(default=None).start()
    try:
        yield server
    finally:
        server.stop()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def remote(server: FakeOpenAI) -> Callable[[], Awaitable[ChatModelHandle]]:
    config = ProviderConfig(provider="openai-compatible", model="fake-model",
                            base_url=server.base_url)  # fmt: skip

    async def model() -> ChatModelHandle:
        return make_chat_model(config)

    return model


def long_branch(store: SqliteConversationStore) -> str:
    conversation = store.create_conversation("ide-helper", "long")
    parent: str | None = None
    for n in range(8):
        parent = store.add_message(conversation.id, "user", f"ask {n}\nmore", parent).id
        parent = store.add_message(conversation.id, "assistant", f"say {n}\nmore", parent).id
    return conversation.id


@pytest.mark.parametrize("turn", ["provider", "offline"])
@pytest.mark.parametrize("role", ["unset", "working", "unreachable", "empty"])
async def test_a_summary_is_written_by_the_summary_role_or_the_turns_model_said_once(
    store: SqliteConversationStore,
    tmp_path: Path,
    fake_openai: FakeOpenAI,
    role_server: FakeOpenAI,
    role: RoleState,
    turn: str,
) -> None:
    roles: dict[str, Any] = {}
    if role != "unset":
        url = f"http://127.0.0.1:{closed_port()}/v1" if role == "unreachable" else role_server.base_url  # fmt: skip
        roles["summary"] = {"name": "openai-compatible", "model": "small-summary",
                            "base_url": url, "api_key": "sk-summary"}  # fmt: skip
    if role == "working":
        role_server.script(Reply(SUMMARY))
    if role == "empty":
        role_server.script(Reply(""))
    fake_openai.script(Reply(SUMMARY))
    chat = controller(store, tmp_path, remote(fake_openai) if turn == "provider" else offline(),
                      profile_settings={"roles": roles})  # fmt: skip
    state = chat.state
    assert isinstance(state, ChatState)
    state.open(long_branch(store))

    event = await chat.summarise()
    await chat.aclose()

    assert isinstance(event, RecordSaved), event
    meta = event.record.meta
    role_asked = [b["model"] for b in role_server.chat_bodies]
    turn_asked = [b["model"] for b in fake_openai.chat_bodies]
    failed = role in ("unreachable", "empty")
    assert role_asked == (["small-summary"] if role in ("working", "empty") else [])
    if role == "working":
        assert turn_asked == []
        assert (meta["summary_kind"], meta["summary_model"]) == ("model", "small-summary")
        assert role_server.chat_bodies[0]["messages"][0]["content"] == SUMMARY_PROMPT
    elif turn == "provider":
        assert turn_asked == ["fake-model"]
        assert (meta["summary_kind"], meta["summary_model"]) == ("model", "fake-model")
    else:
        assert turn_asked == []
        assert meta["summary_kind"] == "extract"
        assert "summary_model" not in meta
    note = meta.get("summary_note")
    if failed:
        assert isinstance(note, str)
        assert "summary model failed" in note
        assert "\n" not in note
    else:
        assert note is None
    if meta["summary_kind"] == "model":
        assert meta["summary"] == SUMMARY
