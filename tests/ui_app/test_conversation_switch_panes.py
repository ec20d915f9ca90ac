"""What the side panes show when another conversation opens (a new one, one reopened): the
profile panel above the composer is swapped (the ide-helper's project line must not collide
with the one it replaces: a crash once, Ctrl+N on a fresh install), and the tool pane forgets
the last conversation's tool rows and usage."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle, wait_until
from weaver_tui.core.services import Services
from weaver_tui.screens.conversations import ConversationsScreen
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

        assert any(row.tool_name == "list_files" for row in screen.tools.rows)
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert not screen.tools.rows  # the last conversation's tools are not this one's
        assert str(screen.tools.query_one("#tool-usage", Static).content) == ""
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert app.is_running
        assert screen.state.conversation is None
        labels = list(screen.query(ProjectRootLabel))
        assert len(labels) == 1
        assert labels[0].root == weaver_env

        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, ConversationsScreen))
        await settle(pilot)
        await pilot.press("enter")  # the newest conversation is highlighted
        await settle(pilot)
        assert app.is_running
        assert screen.state.conversation is not None
        assert screen.state.conversation.id == first.id
        assert len(list(screen.query(ProjectRootLabel))) == 1


async def test_the_start_folder_is_stored_and_a_reopened_conversation_keeps_it(
    services: Services, weaver_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started without ``--project-root``: the ide-helper works in the start folder, and that
    folder, not the next launch's, stays the conversation's root."""
    started_in = weaver_env / "repo"
    started_in.mkdir()
    (started_in / "only_here.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(started_in)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await send(pilot, "what files are here?")
        conversation = chat(pilot.app).state.conversation
        assert conversation is not None
        assert conversation.meta["project_root"] == str(started_in.resolve())
    elsewhere = weaver_env / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    app = new_app(services, profile="ide-helper", conversation_id=conversation.id)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(app)
        assert screen.project_dir() == started_in.resolve()
        label = screen.project_label()
        assert label is not None
        assert label.root == started_in.resolve()
        assert screen.header.project == "repo"
        await send(pilot, "what files are here?")
        assert screen.state.leaf_id is not None
        turn = services.store.path_to_root(screen.state.leaf_id)[
            -3:
        ]  # list_files call, result, answer
        assert any("only_here.py" in record.content for record in turn)
