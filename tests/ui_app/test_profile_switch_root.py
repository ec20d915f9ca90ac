"""Ctrl+R reopening a profile's last conversation says which project root that conversation
works in: a notification names it, and the panel's project line shows it, noting when it is
not the folder the app was started in."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import OptionList

from tests.ui_app.conftest import SIZE, chat, new_app, settle
from tests.ui_app.test_switching import highlight
from weaver_tui.core.services import Services
from weaver_tui.widgets.project_root_label import ProjectRootLabel, shown_root


@pytest.mark.usefixtures("shared_notes")  # paper-pilot only opens
async def test_switching_profile_names_the_reopened_conversation_s_root(
    services: Services, tmp_path: Path
) -> None:
    old_root = tmp_path / "old-project"
    new_root = tmp_path / "new-project"
    old_root.mkdir()
    new_root.mkdir()
    store = services.store
    earlier = store.create_conversation(
        "ide-helper", "Refactor", meta={"project_root": str(old_root)}
    )
    store.add_message(earlier.id, "user", "read the parser", None)
    store.create_conversation("paper-pilot", "Papers")  # the newest: the app opens it
    app = new_app(services, profile="paper-pilot", project_root=new_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        await settle(pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await highlight(pilot, pilot.app.screen.query_one(OptionList), "ide-helper")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.conversation is not None
        assert screen.state.conversation.id == earlier.id
        messages = [n.message for n in pilot.app._notifications]
        said = [m for m in messages if shown_root(old_root) in m]
        assert said, messages  # the notification names the root the conversation uses
        assert shown_root(new_root) in said[-1]  # and that it is not the folder we started in
        label = screen.query_one(ProjectRootLabel)
        assert label.root == old_root
        line = str(label.render())
        assert shown_root(old_root) in line
        assert "not" in line
        assert shown_root(new_root) in line
        assert screen.header.project == "old-project"


class LabelHost(App[None]):
    def compose(self) -> ComposeResult:
        label = ProjectRootLabel(Path("/srv/old-project"))
        label.set_root(Path("/srv/old-project"), started_in=Path("/srv/new-project"))
        yield label


def test_project_line_names_a_root_that_is_not_the_launch_folder(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(LabelHost(), terminal_size=(110, 3))
