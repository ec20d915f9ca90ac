"""Deleting a branch takes the tool pane's rows with it when they were about that branch's
turn."""

from __future__ import annotations

from pathlib import Path

from tests.ui_app.conftest import SIZE, chat, new_app, send, settle, wait_until
from tests.ui_app.test_branching import tree_cursor_to
from weaver_tui.core.services import Services
from weaver_tui.screens.confirm import ConfirmScreen


async def test_deleting_the_branch_of_the_last_turn_clears_its_tool_rows(
    services: Services, weaver_env: Path
) -> None:
    (weaver_env / "notes.md").write_text("# notes\n")
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = chat(pilot.app)
        await send(pilot, "list the files")
        assert screen.tools.rows, "the offline ide-helper lists files with a tool"
        user_id = screen.state.path_ids()[0]

        await tree_cursor_to(pilot, user_id)
        await pilot.press("delete")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        assert screen.state.path_ids() == []
        assert not screen.tools.rows
