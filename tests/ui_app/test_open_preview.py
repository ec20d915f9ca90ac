"""A long conversation opens bottom first: its last messages are drawn from one small query,
the whole tree is read behind them, and the screen only shows until it is."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from storage.models import Role
from storage.store import ConversationStore
from tests.ui_app.conftest import (
    SIZE,
    build_services,
    chat,
    chat_ready,
    new_app,
    settle,
    wait_until,
)
from weaver_tui.chat_preview import PREVIEW_MESSAGES, read_preview
from weaver_tui.core.chat_state import ChatState
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen

PATH = PREVIEW_MESSAGES + 90


def _long(store: ConversationStore, profile: str = "ide-helper") -> tuple[str, list[str]]:
    """``PATH`` messages; the reply 11 from the bottom has a second version (not on the path)."""
    conversation = store.create_conversation(profile, "A long one")
    main: list[str] = []
    parent: str | None = None
    for n in range(PATH):
        role: Role = "user" if n % 2 == 0 else "assistant"
        meta = {"provider": "openai-compatible", "model": "m"} if role == "assistant" else None
        record = store.add_message(conversation.id, role, f"message {n} of the path", parent, meta)
        if n == PATH - 11:
            store.add_message(conversation.id, role, "the other version", parent, meta)
        parent = record.id
        main.append(record.id)
    store.set_active_leaf(conversation.id, main[-1])
    return conversation.id, main


@pytest.fixture
def long_held(
    weaver_env: Path, held_open: threading.Event
) -> Iterator[tuple[Services, str, list[str]]]:
    """Offline services over a long conversation (its id and path) whose full read is held."""
    services = build_services(provider="offline")
    conversation_id, main = _long(services.store)
    yield services, conversation_id, main
    services.close_store()


async def _preview_shown(pilot: Pilot[Any]) -> None:
    """Wait until the chat screen shows the first rows (the preview, with a held open)."""

    def shown() -> bool:
        screen = pilot.app.screen_stack[0]
        return isinstance(screen, ChatScreen) and bool(screen.messages.items)

    await wait_until(pilot, shown)


@pytest.fixture
def held_open(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Full reads of a conversation wait until the returned event is set."""
    release = threading.Event()
    real_open = ChatState.open

    def held(self: ChatState, *args: Any, **kwargs: Any) -> None:
        release.wait(10)
        real_open(self, *args, **kwargs)

    monkeypatch.setattr(ChatState, "open", held)
    return release


def test_the_preview_is_the_bottom_of_the_path_as_the_full_open_shows_it(
    weaver_env: Path,
) -> None:
    services = build_services(provider="offline")
    try:
        store = services.store
        conversation_id, main = _long(store)
        preview = read_preview(store, None, conversation_id)
        assert preview is not None
        assert preview.conversation.id == conversation_id
        state = ChatState(store, "ide-helper")
        state.open(conversation_id)
        assert preview.items == state.path_items()[-PREVIEW_MESSAGES:]
        assert [item.id for item in preview.items] == main[-PREVIEW_MESSAGES:]
        assert preview.items[-11].sibling_count == 2
        latest = read_preview(store, "ide-helper", None)
        assert latest is not None
        assert latest.items == preview.items

        short = store.create_conversation("ide-helper", "Short")
        store.add_message(short.id, "user", "hi", None)
        assert read_preview(store, None, short.id) is None  # read whole as fast
        mediated, _ = _long(store, profile="mediator")
        assert read_preview(store, None, mediated) is None  # its views filter by reader
    finally:
        services.close_store()


async def test_a_long_conversation_shows_its_bottom_first_then_everything(
    long_held: tuple[Services, str, list[str]], held_open: threading.Event
) -> None:
    services, conversation_id, main = long_held
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await _preview_shown(pilot)
        await pilot.pause()
        screen = chat(app)
        assert not screen.conversation_open
        assert [item.id for item in screen.messages.items] == main[-PREVIEW_MESSAGES:]
        assert f"message {PATH - 1} of the path" in "\n".join(screen.messages.visible_text())
        assert screen.header.title == "A long one"
        last_entry = screen.messages._layout.entries[-1]
        # Meanwhile the screen only shows: no action; Enter keeps the draft and sends it once
        # the conversation is open.
        assert screen.branching.check_action("fork_selected", ()) is None
        screen.composer.load_text("too early")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.composer.text == "too early"
        assert len(services.store.list_messages(conversation_id)) == PATH + 1

        held_open.set()
        await chat_ready(pilot)
        await settle(pilot)
        assert screen.conversation_open
        items = [item.id for item in screen.messages.items]
        assert items[: len(main)] == main
        assert screen.messages._layout.entries[len(main) - 1] is last_entry  # drawn once, kept
        assert screen.branching.check_action("fork_selected", ()) is True
        assert screen.composer.text == ""
        sent = services.store.get_message(items[len(main)])
        assert (sent.role, sent.content, sent.parent_id) == ("user", "too early", main[-1])
        assert screen.tree.active_leaf_id == items[-1] != main[-1]  # its reply is the leaf


async def test_quitting_while_the_rest_is_read_waits_for_the_read(
    long_held: tuple[Services, str, list[str]], held_open: threading.Event
) -> None:
    services, conversation_id, main = long_held
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await _preview_shown(pilot)
        screen = chat(app)
        threading.Timer(0.2, held_open.set).start()
        app.exit()
    assert not screen.opener.thread.is_alive()
    assert services.store.get_conversation(conversation_id).meta["active_leaf"] == main[-1]
