"""One turn at a time per space: while a reply is written in the space by another process (it
holds the conversation's turn lock), the host's message is not refused as busy; it waits in
the space's line, shows as waiting, and is answered once the other turn has ended."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from storage.seats import SeatBook
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, wait_until
from tests.ui_app.test_host_follows_space import mediator_space, shown_text
from weaver_tui.core.services import Services
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.chat.sender import BUSY_SENTENCE

HOST_SAYS = "Alex again, typed while Sam's turn runs."

HOLD_LOCK = """
import sys
from pathlib import Path
from agents.runtime.turn_lock import conversation_turn
with conversation_turn(Path(sys.argv[1]), sys.argv[2]):
    print("holding", flush=True)
    sys.stdin.read()
"""


def waiting_line(screen: ChatScreen) -> str:
    panel = screen.space_panel()
    return "" if panel is None else str(panel.presence.render())


async def test_a_message_sent_while_another_turn_runs_waits_and_is_answered_after(
    services: Services, tmp_path: Path
) -> None:
    conversation_id = mediator_space(services)
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLD_LOCK, str(services.data_dir), conversation_id,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert holder.stdout is not None
    assert holder.stdin is not None
    assert (await asyncio.wait_for(holder.stdout.readline(), 60)).strip() == b"holding"
    app = new_app(services, conversation_id=conversation_id)
    notes: list[str] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await chat_ready(pilot)
            screen = chat(app)
            await wait_until(pilot, lambda: screen.space_panel() is not None)
            app.notify = lambda message, **_: notes.append(str(message))  # type: ignore[method-assign]
            screen.notify = app.notify  # type: ignore[method-assign]
            await send(pilot, HOST_SAYS, wait=False)
            await wait_until(pilot, lambda: HOST_SAYS in waiting_line(screen))
            assert BUSY_SENTENCE not in notes
            assert screen.composer.text == ""  # taken, not kept as a refused draft
            assert HOST_SAYS not in shown_text(screen)

            holder.stdin.close()  # the other turn ends
            await asyncio.wait_for(holder.wait(), 60)
            await wait_until(pilot, lambda: HOST_SAYS in shown_text(screen), bound_s=60)
            await wait_until(pilot, lambda: HOST_SAYS not in waiting_line(screen), bound_s=60)
            await wait_until(pilot, lambda: screen.messages.items[-1].content != HOST_SAYS)
            user = next(r for r in services.store.list_messages(conversation_id)
                        if r.content == HOST_SAYS)  # fmt: skip
            assert user.meta.get("sender") == "Alex"
        book = SeatBook(services.storage.sqlite_path)
        try:
            assert book.queued(conversation_id) == []
        finally:
            book.close()
    finally:
        if holder.returncode is None:
            holder.kill()
            await holder.wait()
