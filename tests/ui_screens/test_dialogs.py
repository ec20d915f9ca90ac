"""Confirm and rename dialogs dismiss with what the user chose."""

from __future__ import annotations

from textual.widgets import Input

from tests.ui_screens.conftest import SCREEN_SIZE, ScreenHost
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.screens.rename import RenameScreen


async def test_confirm_defaults_to_cancel_on_enter() -> None:
    app = ScreenHost(lambda: ConfirmScreen("Delete this branch?", "Delete"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [False]


async def test_a_question_whose_action_only_adds_confirms_on_enter_and_cancels_on_escape() -> None:
    app = ScreenHost(lambda: ConfirmScreen("Save 2 new files?", "Save", enter_confirms=True))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [True]
    app = ScreenHost(lambda: ConfirmScreen("Save 2 new files?", "Save", enter_confirms=True))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [False]


async def test_confirm_with_y_or_the_confirm_button() -> None:
    app = ScreenHost(lambda: ConfirmScreen("Delete?"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert app.results == [True]
    app = ScreenHost(lambda: ConfirmScreen("Delete?"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.click("#confirm")
        await pilot.pause()
        assert app.results == [True]


async def test_rename_returns_the_cleaned_title() -> None:
    app = ScreenHost(lambda: RenameScreen("Old title"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        field = app.screen.query_one(Input)
        assert field.value == "Old title"
        field.value = "  New   title "
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == ["New title"]


async def test_rename_blank_or_escape_gives_none() -> None:
    app = ScreenHost(lambda: RenameScreen("Old title"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        app.screen.query_one(Input).value = "   "
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [None]
    app = ScreenHost(lambda: RenameScreen("Old title"))
    async with app.run_test(size=SCREEN_SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]
