"""A participant's seat app (pilot): locked to its participant, no key or command switches
speaker or view, what it sends waits in line visibly, and it shows, live, only what its
participant may read."""

from __future__ import annotations

import time

from textual.pilot import Pilot

from agents.shared_space.space import new_space
from storage.seats import SeatBook
from storage.sqlite_store import SqliteConversationStore
from weaver_tui.seat_app import SeatApp

WAIT_S = 30


async def _until(pilot: Pilot[None], done: object) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def _shown(app: SeatApp) -> str:
    return "\n".join(text.plain for text in app.shown)


async def test_no_key_or_command_switches_the_seats_speaker_or_view(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    app = SeatApp(store.path, space.id, "Alex")
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ("f2", "f3", "ctrl+p", "ctrl+o", "ctrl+t", "ctrl+r", "f1", "ctrl+backslash"):
            await pilot.press(key)
        await pilot.pause()
        assert app.participant == "Alex"
        assert len(app.screen_stack) == 1  # no palette, no picker opened
        actions = {active.binding.action for active in app.active_bindings.values()}
        assert not {"cycle_speaker", "cycle_view", "command_palette"} & actions
        await pilot.press("f8")
        assert app.shared
        await pilot.press(*"to all", "enter")
        book = SeatBook(store.path)
        try:
            (queued,) = book.queued(space.id)
        finally:
            book.close()
        assert (queued.participant, queued.content, queued.shared) == ("Alex", "to all", True)
        await _until(pilot, lambda: "waiting for its turn" in _shown(app))


async def test_the_seat_shows_live_what_its_participant_may_read_and_nothing_else(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    app = SeatApp(store.path, space.id, "Alex")
    async with app.run_test(size=(100, 30)) as pilot:
        host = SqliteConversationStore(store.path)  # another writer, as the host's runner is
        try:
            private = host.add_message(
                space.id, "user", "Sam's secret", None, meta={"sender": "Sam", "visibility": "Sam"}
            )
            host.add_message(
                space.id,
                "user",
                "Shared hello",
                private.id,
                meta={"sender": "Sam", "visibility": "shared"},
            )
        finally:
            host.close()
        await _until(pilot, lambda: "Shared hello" in _shown(app))
        assert "secret" not in _shown(app)


async def test_an_empty_seat_says_who_you_are_and_shows_its_keys_then_markdown_as_the_app_does(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    app = SeatApp(store.path, space.id, "Alex")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        welcome = str(app.query_one("#welcome").render())
        assert "You are Alex" in welcome
        assert "Sam" in welcome
        footer_keys = {b.binding.key for b in app.active_bindings.values() if b.binding.show}
        assert {"enter", "f8", "pageup", "pagedown", "ctrl+q"} <= footer_keys
        host = SqliteConversationStore(store.path)
        try:
            host.add_message(
                space.id, "user", "We agreed on **200** a month, see `budget.md`.", None,
                meta={"sender": "Sam", "visibility": "shared"},
            )  # fmt: skip
        finally:
            host.close()
        await _until(pilot, lambda: "200" in _shown(app))
        await pilot.pause()
        screen = "\n".join(
            "".join(strip.text for strip in line)
            for line in app.screen._compositor.render_update(full=True).strips  # type: ignore[union-attr]
        )
        assert "**200**" not in screen  # rendered, as the app's message view renders it
        assert "`budget.md`" not in screen
        assert "200 a month" in screen
        assert not app.query("#welcome")
