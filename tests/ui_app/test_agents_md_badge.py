"""The header's AGENTS.md badge: shown while the conversation's turns send the project's
instructions, struck out when the conversation turned them off; a click on it (or the palette
command) switches them, kept in the conversation's meta through the controller, and the next
turn's request (real ``ChatOpenAI`` over HTTP to the fake server) carries them or not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from agents.project_instructions import META_KEY, OFF
from tests.support.fake_openai import FakeOpenAI
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, send, settle
from tests.ui_app.test_keymap_and_palette import palette_run
from weaver_tui.core.services import Services
from weaver_tui.widgets.chat_header import AGENTS_MD, AGENTS_MD_OFF, ChatHeader


def badge_offset(header: ChatHeader) -> int:
    """The header column where the badge is drawn."""
    x = 0
    for text, style in header.shown():
        if style in (AGENTS_MD, AGENTS_MD_OFF):
            return x + 1
        x += len(text)
    raise AssertionError("no AGENTS.md badge in the header")


def write_project(root: Path) -> Path:
    root.mkdir(exist_ok=True)
    (root / "AGENTS.md").write_text("Run the root rules.", encoding="utf-8")
    return root


async def test_the_badge_shows_the_file_and_a_click_turns_it_off_for_the_next_turn(
    remote_services: Services, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    root = write_project(tmp_path / "project")
    fake_openai.script("First.", "Second.")
    app = new_app(remote_services, profile="ide-helper", project_root=root)
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        header = screen.header
        assert header.agents_md == "AGENTS.md"
        assert not header.agents_md_off
        await send(pilot, "one")
        assert "Run the root rules." in fake_openai.chat_bodies[0]["messages"][0]["content"]

        await pilot.click(ChatHeader, offset=(badge_offset(header), 0))
        await settle(pilot)
        assert header.agents_md_off
        assert screen.state.setting(META_KEY) == OFF
        conversation = screen.state.conversation
        assert conversation is not None
        stored = remote_services.store.get_conversation(conversation.id)
        assert stored.meta.get(META_KEY) == OFF
        await send(pilot, "two")
        assert "Run the root rules." not in fake_openai.chat_bodies[1]["messages"][0]["content"]

        await palette_run(pilot, "Project instructions (AGENTS.md)")
        await settle(pilot)
        assert not header.agents_md_off
        assert screen.state.setting(META_KEY) is None


async def test_a_profile_without_a_project_shows_no_badge(
    services: Services, weaver_env: Path
) -> None:
    write_project(weaver_env)
    app = new_app(services, profile="mediator")
    async with app.run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        screen = chat(app)
        assert screen.header.agents_md == ""
        screen.action_toggle_project_instructions()
        await settle(pilot)
        assert screen.state.setting(META_KEY) is None  # nothing to switch


class HeaderHost(App[None]):
    def __init__(self, *, off: bool) -> None:
        super().__init__()
        self.off = off

    def compose(self) -> ComposeResult:
        yield ChatHeader()

    def on_mount(self) -> None:
        header = self.query_one(ChatHeader)
        header.profile = "ide-helper"
        header.title = "Why does the parser drop comments?"
        header.project = "weaver"
        header.agents_md = "AGENTS.md"
        header.agents_md_off = self.off


def test_agents_md_badge_snapshot(snap_compare: Callable[..., bool]) -> None:
    async def settle_header(pilot: Pilot[None]) -> None:
        await pilot.pause()

    assert snap_compare(HeaderHost(off=False), terminal_size=(100, 3), run_before=settle_header)


def test_agents_md_badge_off_snapshot(snap_compare: Callable[..., bool]) -> None:
    async def settle_header(pilot: Pilot[None]) -> None:
        await pilot.pause()

    assert snap_compare(HeaderHost(off=True), terminal_size=(100, 3), run_before=settle_header)
