"""Consent at a seat (pilot, real SQLite file): a post that draws on this participant's
private words shows only at their seat, with allow / edit / refuse; the answer is stored as
theirs; the host's panel shows the post waiting."""

from __future__ import annotations

import time
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from agents.shared_space.space import new_space
from storage.consents import ConsentBook
from storage.sqlite_store import SqliteConversationStore
from tests.ui_profiles.conftest import SIZE, PanelHost
from weaver_tui.seat_app import SeatApp
from weaver_tui.widgets.space_panel import SpacePanel

WAIT_S = 30
POST = "Sam would like to plan for an old debt together."


async def _until(pilot: Pilot[Any], done: Any) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def _consent(app: SeatApp) -> str:
    box = app.query_one("#consent", Static)
    return "" if box.has_class("-empty") else str(box.render())


async def test_only_the_one_asked_sees_the_question_and_their_answer_is_theirs(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    book = ConsentBook(store.path)
    try:
        book.ask(space.id, "call-1", ["Sam"], "post_to_shared", POST)
        book.ask(space.id, "call-2", ["Sam"], "post_to_shared", POST + " Again.")
    finally:
        book.close()
    alex = SeatApp(store.path, space.id, "Alex")
    async with alex.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await _until(pilot, lambda: alex.drawn)
        assert _consent(alex) == ""
        assert not alex.asked
    sam = SeatApp(store.path, space.id, "Sam")
    async with sam.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: POST in _consent(sam))
        assert "uses what you told the mediator privately" in _consent(sam)
        await pilot.press("f7")  # refuse the first
        await _until(pilot, lambda: "Again." in _consent(sam))
        await pilot.press(*"My own words", "f6")  # the second: Sam's words instead
        await _until(pilot, lambda: _consent(sam) == "")
    book = ConsentBook(store.path)
    try:
        (first,) = book.for_call("call-1")
        (second,) = book.for_call("call-2")
    finally:
        book.close()
    assert (first.decision, second.decision, second.edited) == ("refuse", "edit", "My own words")


async def test_the_host_panel_shows_the_post_waiting_for_consent(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    book = ConsentBook(store.path)
    try:
        book.ask(space.id, "call-1", ["Sam"], "post_to_shared", POST)
        waiting = book.waiting(space.id, None)
    finally:
        book.close()
    app = PanelHost(SpacePanel(("Alex", "Sam")))
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(SpacePanel)
        line = panel.query_one("#consent-line", Static)
        assert line.has_class("-empty")
        panel.show_consents(waiting)
        await pilot.pause()
        assert not line.has_class("-empty")
        assert str(line.render()) == f"Waiting for Sam's consent at their seat: {POST}"
