"""Statements at a seat (pilot, real SQLite file): the current statement's versions side by
side, F5/F6/F7 answer it with the composer's text as the critique, stored as that participant's
own answer; another seat sees that they answered, what only once all have, and the critique
only once its author shares it (F9). The host's panel shows the same, and the agreed list."""

from __future__ import annotations

import time
from typing import Any

from textual.pilot import Pilot

from agents.shared_space.space import new_space
from agents.shared_space.statements import statement_board
from storage.sqlite_store import SqliteConversationStore
from storage.statement_answers import AnswerBook
from tests.ui_profiles.conftest import SIZE, PanelHost
from weaver_tui.seat_app import SeatApp
from weaver_tui.seat_record_screen import SeatRecordScreen
from weaver_tui.widgets.space_panel import SpacePanel
from weaver_tui.widgets.statement_box import StatementBox

WAIT_S = 30
CRITIQUE = "The trip matters to me"


async def _until(pilot: Pilot[Any], done: Any) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def _box(app: Any) -> str:
    """What the statement box draws, as plain text."""
    box = app.query_one(StatementBox)
    return "" if box.has_class("-empty") else _plain(app, box)


def _plain(app: Any, widget: Any) -> str:
    lines = widget.render_lines(widget.region.reset_offset)
    return "\n".join("".join(segment.text for segment in line) for line in lines)


def _statement(store: SqliteConversationStore, space: str, parent: str | None, **meta: Any) -> str:
    return store.add_message(
        space, "tool", "Statement posted.", parent,
        meta={"name": "propose_statement", "kind": "statement", "visibility": "shared",
              "recipient": "shared", "statement": "S1", "topic": "monthly budget", **meta},
    ).id  # fmt: skip


async def test_answers_at_seats_stay_private_until_shared_and_agreement_shows(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    user = store.add_message(space.id, "user", "Budget?", None, meta={"sender": "Alex"})
    v1 = _statement(
        store, space.id, user.id, delivered_content="We save 500 a month.", statement_version=1
    )
    sam = SeatApp(store.path, space.id, "Sam")
    async with sam.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: "We save 500 a month." in _box(sam))
        assert "S1 v1 · monthly budget" in "\n".join(t.plain for t in sam.shown)
        await pilot.press(*CRITIQUE, "f6")
        await _until(pilot, lambda: "you ~ partly" in _box(sam))
        assert sam.query_one("#composer").value == ""  # type: ignore[attr-defined]
    book = AnswerBook(store.path)
    try:
        (answer,) = book.answers(space.id, None, 2)
    finally:
        book.close()
    assert (answer.participant, answer.answer, answer.critique) == ("Sam", "partly", CRITIQUE)

    alex = SeatApp(store.path, space.id, "Alex")
    async with alex.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: "Sam ● answered" in _box(alex))
        assert "partly" not in _box(alex)
        await pilot.press("f5")
        await _until(pilot, lambda: "Sam ~ partly" in _box(alex))  # all answered: values show
        assert CRITIQUE not in _box(alex)  # the critique is still Sam's own
        book = AnswerBook(store.path)
        try:
            assert book.share(v1, "Sam")
        finally:
            book.close()
        host = SqliteConversationStore(store.path)  # a commit the seat's change signal sees
        try:
            v2 = _statement(
                host, space.id, v1, delivered_content="We save 400 a month and 100 for the trip.",
                statement_version=2, revises=v1, name="revise_statement",
            )  # fmt: skip
        finally:
            host.close()
        await _until(pilot, lambda: "100 for the trip" in _box(alex))
        host = SqliteConversationStore(store.path)
        try:
            host.add_message(
                space.id, "tool", "Agenda set.", v2,
                meta={"name": "set_agenda", "kind": "agenda", "visibility": "shared",
                      "topics": ["monthly budget"]},
            )  # fmt: skip
        finally:
            host.close()
        # the box is drawn again as the agenda, then the statement's versions, come in
        shown = ("◐ monthly budget (statement proposed)", "v1", "v2 (to answer)",
                 "We save 500 a month.")  # fmt: skip
        await _until(pilot, lambda: all(part in _box(alex) for part in shown))
        await pilot.press("f5")
        await _until(pilot, lambda: "you ✓ agrees" in _box(alex))
        assert "Words:" not in _box(alex)  # the meter is the host's
    book = AnswerBook(store.path)
    try:
        book.answer(space.id, v2, "Sam", "agree")
    finally:
        book.close()

    board = statement_board(store, space.id, "shared")
    panel_app = PanelHost(SpacePanel(("Alex", "Sam")))
    async with panel_app.run_test(size=SIZE) as pilot:
        panel = panel_app.query_one(SpacePanel)
        panel.show_statements(board)
        await pilot.pause()
        drawn = _box(panel_app)
        assert "✔ Agreed S1 v2" in drawn
        assert "100 for the trip" in drawn


async def test_a_seat_never_sees_another_participant_s_critique_until_they_share_it(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam", "Kim"))
    user = store.add_message(space.id, "user", "Budget?", None, meta={"sender": "Alex"})
    v1 = _statement(store, space.id, user.id, delivered_content="We save.", statement_version=1)
    book = AnswerBook(store.path)
    try:
        for name in ("Alex", "Sam", "Kim"):
            book.answer(space.id, v1, name, "disagree", f"secret critique of {name}")
    finally:
        book.close()
    board = statement_board(store, space.id, "Kim")
    critiques = [a.critique for a in board[0].answers[v1]]
    assert critiques == [None, None, "secret critique of Kim"]
    kim = SeatApp(store.path, space.id, "Kim")
    async with kim.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: "Alex ✗ disagrees" in _box(kim))
        assert "secret critique of Alex" not in _box(kim)
        assert "secret critique of Sam" not in _box(kim)
        assert "secret critique of Kim" in _box(kim)


async def test_f4_shows_the_participant_s_own_record_and_nobody_else_s_private_words(
    store: SqliteConversationStore,
) -> None:
    space = new_space(store, ("Alex", "Sam"))
    said = store.add_message(space.id, "user", "Alex's private worry", None,
                             meta={"sender": "Alex", "visibility": "Alex"})  # fmt: skip
    store.add_message(space.id, "user", "Sam's private worry", said.id,
                      meta={"sender": "Sam", "visibility": "Sam"})  # fmt: skip
    sam = SeatApp(store.path, space.id, "Sam")
    async with sam.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: sam.drawn)
        await pilot.press("f4")
        await _until(pilot, lambda: len(sam.screen_stack) == 2)
        screen = sam.screen
        assert isinstance(screen, SeatRecordScreen)
        record = screen.markdown
        assert "(Sam's copy)" in record
        assert "Sam's private worry" in record
        assert "Alex's private worry" not in record
        await pilot.press("escape")
        await _until(pilot, lambda: len(sam.screen_stack) == 1)
