"""A participant's seat app (pilot): locked to its participant, no key or command switches
speaker or view, what it sends waits in line visibly, and it shows, live, only what its
participant may read."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events
from textual.pilot import Pilot

from agents.shared_space.space import new_space
from storage.printable import printable
from storage.seats import SeatBook
from storage.sqlite_store import SqliteConversationStore
from weaver_tui.seat_app import SeatApp
from weaver_tui.seat_composer import MessageTooLarge, SeatComposer, seat_message

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
        try:  # the composer's Enter is handled once the app's queue reaches it
            await _until(pilot, lambda: len(book.queued(space.id)) == 1)
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


def _queued_contents(store: SqliteConversationStore, conversation_id: str) -> list[str]:
    book = SeatBook(store.path)
    try:
        return [queued.content for queued in book.queued(conversation_id)]
    finally:
        book.close()


async def test_a_pasted_escape_sequence_is_never_stored_and_a_huge_paste_is_refused_whole(
    store: SqliteConversationStore,
) -> None:
    """Through the seat's own composer: a paste carrying OSC 52, a retitle, a screen clear, C1
    controls and a line break is stored as its printable words only; a paste over
    ``max_bytes`` (5 MB against a 2 MB limit) is said in one notification and nothing of it
    is inserted or stored; the seat keeps working."""
    space = new_space(store, ("Alex", "Sam"))
    app = SeatApp(store.path, space.id, "Alex", max_bytes=2_000_000)
    async with app.run_test(size=(100, 30)) as pilot:
        composer = app.query_one("#composer", SeatComposer)
        hostile = "hi \x1b]52;c;Y3VybA==\x07there\x1b]0;owned\x07\x1b[2J\x9b31m\nsecond line\x00"
        composer.post_message(events.Paste(hostile))
        await pilot.pause()
        await pilot.press("enter")
        await _until(pilot, lambda: _queued_contents(store, space.id) != [])
        (stored,) = _queued_contents(store, space.id)
        assert stored == printable(stored)
        assert "\x1b" not in stored
        assert "\n" not in stored
        assert stored.split() == ["hi", "there", "second", "line"]

        composer.post_message(events.Paste("x" * 5_000_000))
        await _until(
            pilot, lambda: any("max_message_bytes" in n.message for n in app._notifications)
        )
        assert composer.value == ""  # nothing of it inserted
        await pilot.press(*"after", "enter")
        await _until(pilot, lambda: len(_queued_contents(store, space.id)) == 2)
        assert _queued_contents(store, space.id)[1] == "after"


TEXT_WITH_CONTROLS = st.lists(
    st.one_of(
        st.text(st.characters(codec="utf-8"), max_size=8),
        st.sampled_from(
            ["\x1b", "\x9b", "\x9d", "\x07", "\x1b]52;c;", "\x1b[", "\n", "\r", "\x00"]
        ),
    ),
    max_size=30,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=TEXT_WITH_CONTROLS, max_bytes=st.integers(min_value=1, max_value=400))
def test_any_text_becomes_one_printable_line_within_the_limit_or_is_refused_whole(
    text: str, max_bytes: int
) -> None:
    """The class: any text from any route is kept only as printable text on one line, and
    text over the limit is refused whole."""
    size = len(text.encode("utf-8", "surrogatepass"))
    try:
        message = seat_message(text, max_bytes)
    except MessageTooLarge:
        assert size > max_bytes
        return
    assert size <= max_bytes
    assert message == printable(message)
    assert "\n" not in message
    assert "\x1b" not in message
    assert not any("\x80" <= ch <= "\x9f" or (ch < " " and ch != "\t") for ch in message)
