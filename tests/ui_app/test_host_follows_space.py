"""The host's chat on a mediator conversation is live: what another process writes to it (a
seat's message answered by the space's runner, here ``weaver-tui ask`` in a real subprocess)
appears without reopening, and the mediator's panel shows which seats are connected."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from storage.seats import SeatBook
from storage.sqlite_store import SqliteConversationStore
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.widgets.seat_presence import SeatPresence

SEAT_SAYS = "Sam here, writing from another process."


def shown_text(screen: ChatScreen) -> str:
    return "\n".join(item.content for item in screen.messages.items)


def _presence_line(screen: ChatScreen) -> SeatPresence | None:
    """The panel's presence line, once the panel is composed (it may be mounted first)."""
    panel = screen.space_panel()
    found = panel.query(SeatPresence) if panel is not None else None
    return found.first() if found else None


def presence(screen: ChatScreen) -> str:
    line = _presence_line(screen)
    return "" if line is None else str(line.render())


def seated(screen: ChatScreen) -> bool | None:
    line = _presence_line(screen)
    return None if line is None else line.has_class("-seated")


def mediator_space(services: Services) -> str:
    store = services.store
    assert isinstance(store, SqliteConversationStore)
    conversation = store.create_conversation(
        "mediator", "Budget", meta={"participants": ["Alex", "Sam"]}
    )
    store.add_message(conversation.id, "user", "Alex opens the space.", None,
                      meta={"sender": "Alex", "visibility": "shared"})  # fmt: skip
    return conversation.id


async def ask_as_sam(tmp_path: Path, conversation_id: str) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "weaver_tui", "--provider", "offline", "ask",
        "--conversation", conversation_id, "--sender", "Sam", SEAT_SAYS,
        cwd=tmp_path, env=dict(os.environ), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 0, stderr.decode()


async def test_records_another_process_writes_appear_without_reopening(
    services: Services, tmp_path: Path
) -> None:
    conversation_id = mediator_space(services)
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        await wait_until(pilot, lambda: screen.agents_ready and screen.space_panel() is not None)
        assert SEAT_SAYS not in shown_text(screen)
        await ask_as_sam(tmp_path, conversation_id)
        await wait_until(pilot, lambda: SEAT_SAYS in shown_text(screen), bound_s=60)
        user = next(i for i in screen.messages.items if i.content == SEAT_SAYS)
        assert screen.messages.items[-1].id != user.id  # the offline reply came too
        assert screen.state.leaf_id == screen.messages.items[-1].id  # the path follows


async def test_the_panel_shows_which_seats_are_connected(services: Services) -> None:
    conversation_id = mediator_space(services)
    book = SeatBook(services.storage.sqlite_path)
    try:
        alex, _sam = book.open_seats(conversation_id, ["Alex", "Sam"])
        app = new_app(services, conversation_id=conversation_id)
        async with app.run_test(size=SIZE) as pilot:
            await chat_ready(pilot)
            screen = chat(app)
            await wait_until(pilot, lambda: "Sam ○ away" in presence(screen))
            assert "Alex ○ away" in presence(screen)
            book.connected(alex.token, +1)  # a browser opened Alex's link
            await wait_until(pilot, lambda: "Alex ● connected" in presence(screen))
            assert "Sam ○ away" in presence(screen)
            book.close_space(conversation_id)
            await wait_until(pilot, lambda: seated(screen) is False)  # the links were revoked
    finally:
        book.close()
