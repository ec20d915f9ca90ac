"""A confirm dialog that closes before it ever repaints must not leave the message view waiting.

The view renders the lines around the viewport after its screen's next paint. Textual hands
such a request to whichever screen is on top, so one made as the dialog opened sat with the
dialog, and closing the dialog before its first repaint dropped it: the view then reported a
render pending forever and never filled the lines off screen. Here the dialog's repaint
period is stretched (as on a loaded machine) while everything else runs at normal speed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import textual.screen

from tests.support.applied_patch import ORIGINAL
from tests.ui_app.conftest import SIZE, chat, new_app, settle
from tests.ui_app.test_file_rewind import ask_to_check_out, seed_applied_patch
from weaver_tui.core.services import Services
from weaver_tui.widgets.message_view import MessageView


async def test_checking_out_through_a_dialog_that_never_painted_leaves_the_view_rendered(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    first_id, _tool_id = seed_applied_patch(services, project)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await settle(pilot)
        # A screen's repaint timer is made when the screen first asks to repaint, so only
        # the dialog opened now gets the long period.
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(textual.screen, "UPDATE_PERIOD", 30.0)
            await ask_to_check_out(pilot, first_id)
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == ORIGINAL
        view = chat(pilot.app).query_one(MessageView)
        assert not view.render_pending
