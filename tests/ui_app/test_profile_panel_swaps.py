"""The profile panel above the composer is swapped whenever another conversation opens: a new
conversation, another one reopened, another profile. The ide-helper's project line must not
collide with the one it replaces (a crash once: Ctrl+N on a fresh install)."""

from __future__ import annotations

from pathlib import Path

from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle, wait_until
from weaver_tui.screens.conversations import ConversationsScreen
from weaver_tui.services import Services
from weaver_tui.widgets.project_root_label import ProjectRootLabel


async def test_new_and_reopened_ide_helper_conversations_keep_one_project_line(
    services: Services, weaver_env: Path
) -> None:
    app = new_app(services, profile="ide-helper")
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(app)
        await send(pilot, "what files are here?")
        first = screen.state.conversation
        assert first is not None

        await pilot.press("ctrl+n")
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert app.is_running and screen.state.conversation is None
        labels = list(screen.query(ProjectRootLabel))
        assert len(labels) == 1 and labels[0].root == weaver_env

        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, ConversationsScreen))
        await settle(pilot)
        await pilot.press("enter")  # the newest conversation is highlighted
        await settle(pilot)
        assert app.is_running
        assert screen.state.conversation is not None and screen.state.conversation.id == first.id
        assert len(list(screen.query(ProjectRootLabel))) == 1
