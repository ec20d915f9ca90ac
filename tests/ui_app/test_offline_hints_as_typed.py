"""What the offline ide-helper says it can do shows the quoting the user must type: a hint
rendered through the message view's Markdown keeps its backticks and double quotes, and a
listing of the project's top folder never reads as a bare dot path before a full stop."""

from __future__ import annotations

from pathlib import Path

from tests.ui_app.conftest import SIZE, chat, new_app, send, settle
from weaver_tui.core.services import Services


async def test_the_offline_hint_shows_the_backticks_and_quotes_to_type(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    async with new_app(services, profile="ide-helper", project_root=project).run_test(
        size=SIZE
    ) as pilot:
        await send(pilot, "how are you today")
        await settle(pilot)
        shown = " ".join(" ".join(chat(pilot.app).messages.visible_text()).split())
        assert "`load config`" in shown
        assert '"load config"' in shown


async def test_listing_the_top_folder_names_no_bare_dot_path(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text("print('hi')\n", encoding="utf-8")
    async with new_app(services, profile="ide-helper", project_root=project).run_test(
        size=SIZE
    ) as pilot:
        await send(pilot, "list the files")
        await settle(pilot)
        shown = " ".join(" ".join(chat(pilot.app).messages.visible_text()).split())
        assert "app.py" in shown
        assert " in .." not in shown
        assert " in . " not in shown
