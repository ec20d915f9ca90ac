"""The launch path paints first: the app built from ``PendingSettings`` (as the CLI builds it).

The first frame is the chat skeleton, drawn from the peeked theme; right after it the store
opens, the chat screen is imported and swapped in, and the settings are validated with
pydantic-settings. These tests check that what the first frame left for later arrives
(the conversation, its tree, validated settings, the model badge), that what was typed in
the skeleton is kept, that a bad setting or database still ends the app with one sentence
and exit code 2, and that the theme is the configured one from the first frame on.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from textual import events
from textual._compositor import LayoutUpdate
from textual.color import Color
from textual.pilot import Pilot
from textual.screen import Screen

import weaver_tui.app
import weaver_tui.core.heap
from storage.models import MessageRecord
from tests.ui_app.conftest import SIZE, chat, chat_ready, settle, wait_until
from weaver_tui.app import WeaverApp, make_app
from weaver_tui.core.heap import AGENT_STACK_LOADED, LAUNCH_HEAP, YOUNG_THRESHOLD, pause_collector
from weaver_tui.core.services import Services
from weaver_tui.core.settings.config import Settings
from weaver_tui.core.settings.pending import PendingSettings
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.chat_skeleton import ChatSkeleton


def _seeded(
    weaver_env: Path, count: int = 6, profile: str = "atom-developer"
) -> tuple[str, list[str]]:
    """A conversation on ``profile`` in the data folder, written by validated services, then
    closed. Not the default profile (the launch reopens it all the same), and one whose
    warm-up starts no server process: these tests are about the launch, not a profile's tools."""
    services = Services(
        PendingSettings.peek(env_file=None, provider="offline").validate(),
        configure_logging=False,
    )
    store = services.store
    conversation = store.create_conversation(profile, "Reopened on launch")
    ids: list[str] = []
    parent = None
    for n in range(count):
        parent = store.add_message(
            conversation.id, "user" if n % 2 == 0 else "assistant", f"message {n}", parent
        ).id
        ids.append(parent)
    services.close_store()
    return conversation.id, ids


def _screen_lines(app: WeaverApp) -> list[str]:
    """The text of every row of the current screen, as drawn."""
    update = app.screen._compositor.render_update(full=True)
    assert isinstance(update, LayoutUpdate)
    return ["".join(strip.text for strip in row) for row in update.strips]


def _where(lines: list[str], text: str) -> tuple[int, int]:
    """(row, column) of the first line holding ``text``."""
    return next((row, line.index(text)) for row, line in enumerate(lines) if text in line)


def _pending(**overrides: Any) -> Services:
    return Services(
        PendingSettings.peek(env_file=None, provider="offline", **overrides),
        configure_logging=False,
    )


def _hold_the_chat_screen(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The chat screen arrives only when the returned event is set (the skeleton stays)."""
    release = threading.Event()
    real_import = weaver_tui.app._import_chat_screen

    def held_import() -> None:
        assert release.wait(20)
        real_import()

    monkeypatch.setattr(weaver_tui.app, "_import_chat_screen", held_import)
    return release


class HeldLaunch(NamedTuple):
    """A seeded conversation and the app launched on it, its chat screen held back until
    ``release`` is set."""

    conversation_id: str
    ids: list[str]
    services: Services
    app: WeaverApp
    release: threading.Event


@pytest.fixture
def held_launch(weaver_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldLaunch]:
    # On a profile whose turn starts no knowledge server: what these tests send is answered
    # by the offline model whatever the profile, and the profile is not what they test.
    conversation_id, ids = _seeded(weaver_env, 2, profile="ide-helper")
    release = _hold_the_chat_screen(monkeypatch)
    services = _pending()
    try:
        yield HeldLaunch(conversation_id, ids, services, make_app(services), release)
    finally:
        release.set()
        services.close_store()


async def test_the_first_frame_then_everything_it_deferred(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """...and the warm-up of a second app in the process (the agent stack already imported and
    frozen by a first one) freezes nothing more: only the cyclic collector's young
    generations are left for this app's widgets, which die with it."""
    frozen_before_in_this_process = {LAUNCH_HEAP, AGENT_STACK_LOADED}
    monkeypatch.setattr(weaver_tui.core.heap, "_done", frozen_before_in_this_process)
    (weaver_env / "config.yaml").write_text("theme: weaver-light\n", encoding="utf-8")
    conversation_id, ids = _seeded(weaver_env)
    services = _pending()
    assert not services.settings_ready
    app = make_app(services)
    thresholds = gc.get_threshold()
    assert app.theme == "weaver-light"  # the configured theme before the first frame
    assert app.has_class("-theme-weaver-light", "-light-mode")
    assert not app.has_class("-dark-mode")
    pause_collector()  # as the weaver-tui command does before importing Textual
    frozen = gc.get_freeze_count()
    themes_seen: list[str] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.theme_changed_signal.subscribe(app, lambda theme: themes_seen.append(theme.name))
            assert app.theme == "weaver-light"
            light = app.get_theme("weaver-light")
            assert light is not None
            assert app.screen.styles.background == Color.parse(light.background)
            await chat_ready(pilot)
            await wait_until(pilot, lambda: services.settings_ready)
            await settle(pilot)
            screen = chat(app)
            assert screen.header.model_text == "offline"  # the badge waits for validation
            assert screen.state.conversation is not None
            assert screen.state.conversation.id == conversation_id
            assert [item.id for item in screen.messages.items] == ids
            assert screen.tree.active_leaf_id == ids[-1]
            assert all(screen.tree.is_shown(message_id) for message_id in ids)
            assert isinstance(services.settings, Settings)
            assert services.settings.ui.theme == "weaver-light"
            assert app.theme == "weaver-light"
            assert themes_seen == []
            assert gc.isenabled()  # paused for the launch only, until its warm-up is over
            assert gc.get_threshold()[0] == YOUNG_THRESHOLD  # young collections made rarer
            assert screen.agents_ready  # the warm-up ran
            # nothing more frozen (objects frozen by earlier tests may be freed meanwhile)
            assert gc.get_freeze_count() <= frozen
    finally:
        services.close_store()
    assert gc.get_threshold() == thresholds  # put back when the app ends
    assert app.startup_error is None
    assert not (weaver_env / "config.yaml").read_text(encoding="utf-8").count("theme:") > 1


async def test_a_bad_setting_found_after_the_paint_ends_the_app_with_exit_2(
    weaver_env: Path,
) -> None:
    (weaver_env / "config.yaml").write_text("context_messages: lots\n", encoding="utf-8")
    services = _pending()
    app = make_app(services)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: app.startup_error is not None)
            await pilot.pause()
    finally:
        services.close_store()
    assert app.return_code == 2
    assert app.startup_error is not None
    assert "context_messages" in app.startup_error
    assert "config.yaml" in app.startup_error
    assert "\n" not in app.startup_error
    assert gc.isenabled()


async def test_if_the_peek_and_the_validation_disagreed_the_validated_theme_wins(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A safety net that should never be needed: pydantic's answer is the one that stays, and
    switching to it does not write the config file."""
    real_validate = PendingSettings.validate

    def validated_light(self: PendingSettings) -> Settings:
        settings = real_validate(self)
        return settings.model_copy(
            update={"ui": settings.ui.model_copy(update={"theme": "weaver-light"})}
        )

    monkeypatch.setattr(PendingSettings, "validate", validated_light)
    services = _pending()
    app = make_app(services)
    try:
        async with app.run_test(size=SIZE) as pilot:
            assert app.theme == "weaver-dark"
            await wait_until(pilot, lambda: app.theme == "weaver-light")
            await settle(pilot)
    finally:
        services.close_store()
    assert not (weaver_env / "config.yaml").exists()


async def test_the_skeleton_keeps_what_is_typed_until_the_chat_screen_takes_over(
    held_launch: HeldLaunch,
) -> None:
    conversation_id, ids, services, app, release = held_launch
    async with app.run_test(size=SIZE) as pilot:
        skeleton = app.screen
        assert isinstance(skeleton, ChatSkeleton)
        assert skeleton.check_action("new_conversation", ()) is None  # shown, unavailable
        assert app.check_action("help", ()) is None
        await pilot.press(*"hello")
        await pilot.pause()
        assert skeleton.draft == "hello"
        first_frame = _screen_lines(app)
        release.set()
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(app)
        assert isinstance(app.screen, ChatScreen)
        assert len(app.screen_stack) == 1
        assert screen.composer.text == "hello"
        assert screen.composer.has_focus
        assert [item.id for item in screen.messages.items] == ids
        assert app.check_action("help", ()) is True
        assert len(services.store.list_messages(conversation_id)) == 2  # nothing was sent
        # the skeleton has the chat screen's layout: panes and composer where they will be
        chat_frame = _screen_lines(app)
        assert _where(first_frame, "Tools") == _where(chat_frame, "Tools")
        assert _where(first_frame, "No tool has run") == _where(chat_frame, "No tool has run")
        assert _where(first_frame, "╭─ You")[1] == _where(chat_frame, "╭─ You")[1]
        assert first_frame[2].index("▕") == chat_frame[2].index("▕")  # the tree pane edge


async def test_enter_in_the_skeleton_sends_the_message_once_the_chat_can(
    held_launch: HeldLaunch,
) -> None:
    ids, app = held_launch.ids, held_launch.app
    async with app.run_test(size=SIZE) as pilot:
        skeleton = app.screen
        assert isinstance(skeleton, ChatSkeleton)
        await pilot.press(*"hello", "enter", "enter")  # twice, as an impatient user does
        await pilot.pause()
        assert skeleton.draft == "hello"
        assert skeleton.send_requested
        records = await _sent_after_release(pilot, held_launch)
        sent = [r for r in records if r.role == "user" and r.content == "hello"]
        assert len(sent) == 1
        assert sent[0].parent_id == ids[-1]  # sent once, on the branch


async def _sent_after_release(pilot: Pilot[Any], held: HeldLaunch) -> list[MessageRecord]:
    """Let the chat screen in, wait until it has sent what the skeleton held and the reply is
    in; the composer is then empty and focused. The records written since the seeding."""
    conversation_id, ids, services, app, release = held
    release.set()
    await chat_ready(pilot)
    await settle(pilot)
    screen = chat(app)
    assert screen.composer.text == ""
    assert screen.composer.has_focus
    records = [r for r in services.store.list_messages(conversation_id) if r.id not in ids]
    assert any(r.role == "assistant" for r in records)
    return records


def _enter() -> events.Key:
    return events.Key("enter", "\r")


@pytest.mark.parametrize(
    ("typed_before", "in_the_swap", "sent"),
    [
        ("hello", lambda: [_enter()], "hello"),
        ("hello", lambda: [events.Key("exclamation_mark", "!"), _enter()], "hello!"),
        ("hello", lambda: [events.Paste(" there"), _enter()], "hello there"),
        ("hello\r", lambda: [_enter()], "hello"),  # Enter on both sides: sent once
    ],
    ids=["enter", "key-enter", "paste-enter", "enter-twice"],
)
async def test_keys_that_arrive_as_the_chat_screen_replaces_the_skeleton_are_kept(
    held_launch: HeldLaunch,
    monkeypatch: pytest.MonkeyPatch,
    typed_before: str,
    in_the_swap: Callable[[], list[events.Key | events.Paste]],
    sent: str,
) -> None:
    """Input waiting in the app's queue at the very step the chat screen is swapped in (it is
    on top before it has mounted or holds the draft) is typed and sent as if it had been there."""
    app = held_launch.app
    build_chat_screen = app._chat_screen

    def swap_with_input_waiting() -> Screen[Any]:
        for event in in_the_swap():  # as the terminal delivers them, to the app's queue
            app.post_message(event)
        return build_chat_screen()

    monkeypatch.setattr(app, "_chat_screen", swap_with_input_waiting)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["enter" if c == "\r" else c for c in typed_before])
        await pilot.pause()
        records = await _sent_after_release(pilot, held_launch)
        assert [r.content for r in records if r.role == "user"] == [sent]


async def test_a_database_that_cannot_be_opened_ends_the_app_with_exit_2(
    weaver_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = weaver_env / "not-a-folder"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    monkeypatch.setenv("WEAVER_DATA_DIR", str(blocker / "data"))
    services = _pending()
    app = make_app(services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.startup_error is not None)
        await pilot.pause()
    assert app.return_code == 2
    assert app.startup_error is not None
    assert "\n" not in app.startup_error
    assert "not-a-folder" in app.startup_error, app.startup_error
