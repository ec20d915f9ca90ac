"""The palette's "Invite participants" serves the open space from the host's chat: a dialog
with one ``NAME: URL`` line per participant (``c`` copies the chosen one), each link opening
that person's seat on the real guarded server (a real websocket starts a real seat process),
the mediator's panel showing who is connected; "Close shared space" revokes the links."""

from __future__ import annotations

import re
from contextlib import closing
from typing import Any

import httpx
import websockets
from textual.widgets import OptionList
from websockets.typing import Origin

from storage.seats import SeatBook
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle, wait_until
from tests.ui_app.test_host_follows_space import mediator_space, presence, seated
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.screens.invite import InviteScreen

LINE = re.compile(r"(Alex|Sam): (http://127\.0\.0\.1:\d+)/\?seat=([A-Za-z0-9_-]{43})")


def invite_lines(pilot: Any) -> list[str]:
    links = pilot.app.screen.query_one("#invite-links", OptionList)
    return [str(links.get_option_at_index(i).prompt) for i in range(links.option_count)]


async def test_inviting_serves_one_link_per_participant_until_the_space_is_closed(
    services: Services,
) -> None:
    conversation_id = mediator_space(services)
    app = new_app(services, conversation_id=conversation_id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        await wait_until(pilot, lambda: screen.agents_ready)
        await palette_run(pilot, "Invite participants")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, InviteScreen), bound_s=60)

        lines = invite_lines(pilot)
        found = [LINE.fullmatch(line) for line in lines]
        assert all(found), lines
        links = {m[1]: (m[2], m[3]) for m in found if m}
        assert set(links) == {"Alex", "Sam"}
        with closing(SeatBook(services.storage.sqlite_path)) as book:
            tokens = {seat.participant: seat.token for seat in book.seats(conversation_id)}
        assert {name: token for name, (_, token) in links.items()} == tokens

        await pilot.press("down", "c")
        assert app.clipboard == lines[1]

        base, alex = links["Alex"]
        async with httpx.AsyncClient(trust_env=False, timeout=30) as client:
            assert (await client.get(f"{base}/?seat={alex}")).status_code == 200
            assert (await client.get(f"{base}/?seat=guess")).status_code == 403

        await pilot.press("escape")
        await wait_until(pilot, lambda: pilot.app.screen is screen)
        host = base.removeprefix("http://")
        async with websockets.connect(
            f"ws://{host}/ws/{alex}?width=80&height=24", origin=Origin(base), proxy=None
        ):
            await wait_until(pilot, lambda: "Alex ● connected" in presence(screen), bound_s=60)
            assert "Sam ○ away" in presence(screen)

            await palette_run(pilot, "Close shared space")
            await wait_until(pilot, lambda: seated(screen) is False, bound_s=30)
        with closing(SeatBook(services.storage.sqlite_path)) as book:
            assert book.seats(conversation_id) == []
            assert book.seat_for(alex) is None
        async with httpx.AsyncClient(trust_env=False, timeout=30) as client:
            try:
                refused = (await client.get(f"{base}/?seat={alex}")).status_code == 403
            except httpx.ConnectError:
                refused = True  # nothing listens there any more
        assert refused
        await settle(pilot)


async def test_close_acts_on_the_conversation_shown_and_names_it(services: Services) -> None:
    """Serving one space, then showing another mediator conversation: "Close shared space"
    revokes the shown one's links, names it, and leaves the served space's links alone."""
    served_id = mediator_space(services)
    shown = services.store.create_conversation(
        "mediator", "Second space", meta={"participants": ["Alex", "Sam"]}
    )
    services.store.add_message(shown.id, "user", "Sam is here.", None,
                               meta={"sender": "Sam", "visibility": "shared"})  # fmt: skip
    with closing(SeatBook(services.storage.sqlite_path)) as book:
        book.open_seats(shown.id, ("Alex", "Sam"))
    app = new_app(services, conversation_id=served_id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        await wait_until(pilot, lambda: screen.agents_ready)
        await palette_run(pilot, "Invite participants")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, InviteScreen), bound_s=60)
        await pilot.press("escape")
        await wait_until(pilot, lambda: pilot.app.screen is screen)
        screen.open_conversation(shown.id)
        await wait_until(pilot, lambda: screen.state.conversation is not None
                         and screen.state.conversation.id == shown.id)  # fmt: skip
        await palette_run(pilot, "Close shared space")
        await settle(pilot)
        with closing(SeatBook(services.storage.sqlite_path)) as book:
            assert book.seats(shown.id) == []
            assert len(book.seats(served_id)) == 2  # the other space keeps its links
        said = [n.message for n in pilot.app._notifications]
        assert any("Second space" in note and "2 links revoked" in note for note in said), said
