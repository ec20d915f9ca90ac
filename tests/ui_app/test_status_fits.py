"""Status text fits the terminal: the project panel wraps rather than cut its notes (the root
that is not the launch folder, the F4 hint of a waiting patch) on a 120-column terminal, the
footer keeps F1 at 80 columns, and a restart never says "no patch waiting" before it knows."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets._footer import FooterKey

from tests.ui_app.conftest import (
    build_services,
    chat,
    chat_ready,
    new_app,
    send,
    settle,
    wait_until,
)
from weaver_tui.core.services import Services
from weaver_tui.screens.patch_review import PatchReviewScreen
from weaver_tui.widgets.project_root_label import ProjectRootLabel, shown_root

RENAME = 'In src/app.py, rename `"hi " + name` to `f"hi {name}"`'


@pytest.fixture
def project(weaver_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(weaver_env))  # folders shown as ~/..., as a user sees them
    root = weaver_env / "a-project-folder-with-a-fairly-long-name"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text('def greet(name):\n    return "hi " + name\n')
    return root


def drawn(label: ProjectRootLabel) -> str:
    """What the label shows on screen, its lines joined without any spaces (a path may wrap
    between lines; text that is cut is missing here)."""
    width, height = label.size
    strips = label.render_lines(Region(0, 0, width, height))
    return "".join("".join(strip.text.split()) for strip in strips)


def squeezed(text: str) -> str:
    return "".join(text.split())


async def _leave_a_patch_waiting(services: Services, project: Path) -> str:
    app = new_app(services, profile="ide-helper", project_root=project)
    async with app.run_test(size=(120, 40)) as pilot:
        await chat_ready(pilot)
        await send(pilot, RENAME)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PatchReviewScreen))
        await pilot.press("escape")  # decide later
        await settle(pilot)
        conversation = chat(app).state.conversation
        assert conversation is not None
        return conversation.id


async def test_the_project_panel_shows_its_notes_whole_at_120_columns(
    services: Services, project: Path, weaver_env: Path
) -> None:
    conversation_id = await _leave_a_patch_waiting(services, project)
    elsewhere = weaver_env / "another-folder-the-app-was-started-in"
    elsewhere.mkdir()
    app = new_app(services, conversation_id=conversation_id, project_root=elsewhere)
    async with app.run_test(size=(120, 40)) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        label = chat(app).query_one(ProjectRootLabel)
        assert label.pending == 1
        text = drawn(label)
        assert squeezed(shown_root(project)) in text
        assert squeezed(f"not {shown_root(elsewhere)}") in text
        assert "F4" in text


async def test_a_restart_never_says_no_patch_waiting_before_it_knows(
    services: Services, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation_id = await _leave_a_patch_waiting(services, project)
    said: list[str] = []
    show = ProjectRootLabel._show

    def recorded(label: ProjectRootLabel) -> None:
        show(label)
        said.append(str(label.render()))

    monkeypatch.setattr(ProjectRootLabel, "_show", recorded)
    again = build_services(provider="offline")
    try:
        app = new_app(again, conversation_id=conversation_id, project_root=project)
        async with app.run_test(size=(120, 40)) as pilot:
            await chat_ready(pilot)
            await wait_until(pilot, lambda: chat(app).agents_ready)
            await settle(pilot)
    finally:
        again.close_store()
    assert said
    assert "1 patch waiting" in said[-1]
    assert not [line for line in said if "no patch waiting" in line]


@pytest.mark.parametrize("width", [80, 100, 120])
async def test_the_footer_keeps_help_on_screen(services: Services, width: int) -> None:
    async with new_app(services).run_test(size=(width, 30)) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        keys = {key.action: key for key in chat(pilot.app).query(FooterKey)}
        help_key = keys["help"]
        assert help_key.region.width
        assert help_key.region.right <= width
        palette = next(key for key in keys.values() if key.has_class("-command-palette"))
        assert help_key.region.right <= palette.region.x
