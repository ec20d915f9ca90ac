"""Which panel each panel kind places in the chat, and the project-root line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from textual.app import ComposeResult
from textual.widgets import Static

from agents.profile_registry import PROFILE_NAMES, get_traits
from tests.ui_profiles.conftest import SIZE, ThemedApp
from weaver_tui.keymap import KEYMAP, PROFILE_KEYS
from weaver_tui.profile_panels import PanelOptions, panel_for
from weaver_tui.widgets.project_root_label import ProjectRootLabel, shown_root
from weaver_tui.widgets.space_panel import SpacePanel


class LabelHost(ThemedApp):
    def __init__(self, label: ProjectRootLabel) -> None:
        super().__init__()
        self.label = label
        self.requests = 0

    def compose(self) -> ComposeResult:
        yield Static("messages", id="messages")
        yield self.label

    def on_project_root_label_review_requested(self, _: ProjectRootLabel.ReviewRequested) -> None:
        self.requests += 1


def test_each_panel_kind_gets_its_widget_or_none(tmp_path: Path) -> None:
    ide = panel_for("project", PanelOptions(project_root=tmp_path, pending_patches=2))
    assert isinstance(ide, ProjectRootLabel)
    assert (ide.root, ide.pending) == (tmp_path, 2)
    assert isinstance(panel_for("project"), ProjectRootLabel)
    assert isinstance(panel_for("speakers"), SpacePanel)
    assert panel_for(None) is None
    assert panel_for("no-such-kind") is None


def test_each_registered_profile_declares_a_kind_the_app_draws_or_none() -> None:
    kinds = {name: get_traits(name).panel for name in PROFILE_NAMES}
    assert all(kind is None or panel_for(kind) is not None for kind in kinds.values())
    assert {"project", "speakers"} <= set(kinds.values())


async def test_the_speakers_panel_shows_the_participants_it_is_given() -> None:
    for options, speaker, view in (
        (PanelOptions(participants=("Alex", "Sam")), "Alex", None),
        (PanelOptions(participants=("Kim", "Lee"), speaker="Lee", view="shared"), "Lee", "shared"),
    ):
        panel = panel_for("speakers", options)
        assert isinstance(panel, SpacePanel)
        app = ThemedApp()
        async with app.run_test(size=SIZE) as pilot:
            await app.mount(panel)
            await pilot.pause()
            assert panel.speaker_bar.participants == tuple(options.participants)
            assert (panel.speaker, panel.view) == (speaker, view)


async def test_the_root_line_counts_pending_patches_and_asks_for_a_review_on_click(
    tmp_path: Path,
) -> None:
    app = LabelHost(ProjectRootLabel(tmp_path, 0))
    async with app.run_test(size=SIZE) as pilot:
        label = app.label
        text = str(label.render())
        assert str(tmp_path) in text
        assert "no patch waiting for review" in text
        await pilot.click(ProjectRootLabel)
        await pilot.pause()
        assert app.requests == 0  # nothing to review
        label.set_pending(1)
        assert "1 patch waiting for review" in str(label.render())
        assert label.has_class("-pending")
        await pilot.click(ProjectRootLabel)
        await pilot.pause()
        assert app.requests == 1
        label.set_pending(3)
        assert "3 patches waiting for review" in str(label.render())
        label.set_pending(0)
        assert not label.has_class("-pending")


def test_the_root_is_shown_under_home_with_a_tilde(tmp_path: Path) -> None:
    assert shown_root(Path.home() / "src" / "app") == "~/src/app"
    assert shown_root(Path("/srv/project")) == "/srv/project"


def test_panel_keys_do_not_collide_with_the_apps_keys() -> None:
    others = [item for item in KEYMAP if item not in PROFILE_KEYS]  # also once merged
    taken = {key for item in others if item.key for key in item.key.split(",")}
    taken |= {"f5", "f6", "f7"}  # TextArea: select word, line, all
    ours = [item.key for item in PROFILE_KEYS if item.key]
    assert ours == ["f2", "f8", "f3", "f4"]
    assert not taken & set(ours)
    assert {item.command for item in PROFILE_KEYS}.isdisjoint(item.command for item in others)


def test_the_demo_is_a_palette_only_command() -> None:
    demo = [item for item in PROFILE_KEYS if item.command == "Play mediator demo"]
    assert [(item.key, item.scope, item.action) for item in demo] == [(None, "chat", "play_demo")]


def test_importing_the_panels_does_not_load_the_agent_stack() -> None:
    """The chat screen imports this module before the first paint."""
    probe = (
        "import sys, weaver_tui.profile_panels; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'agents', 'langgraph', "
        "'langchain_core', 'langchain_openai'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.stdout.strip() == "[]"
