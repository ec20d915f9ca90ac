"""Slash commands in the composer: typing ``/`` opens a menu that filters as the name grows,
Up/Down choose, Tab completes, Enter runs the palette's own command (``/undo`` asks before the
file is written, as the palette does), Escape closes; an unknown ``/x`` is sent only after a
confirmation and ``//`` sends ``/...`` at once; a profile's own command runs its key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from agents.slash_commands import commands_for, matching
from tests.support.applied_patch import ORIGINAL, PATCHED
from tests.ui_app.conftest import SIZE, chat, chat_ready, new_app, settle, wait_until
from tests.ui_app.test_file_rewind import seed_applied_patch
from weaver_tui.core.services import Services
from weaver_tui.keymap import KeyAction
from weaver_tui.screens.confirm import ConfirmScreen
from weaver_tui.widgets.slash_menu import SlashMenu

WRITERS = [c.name for c in commands_for("composer") if c.writes_files]


def menu(pilot: Pilot[Any]) -> SlashMenu:
    return chat(pilot.app).query_one(SlashMenu)


def offered(pilot: Pilot[Any]) -> list[str]:
    shown = menu(pilot)
    return [c.name for c in shown.offered] if shown.is_open else []


async def type_in(pilot: Pilot[Any], text: str) -> None:
    composer = chat(pilot.app).composer
    composer.focus()
    await pilot.press(*text)
    await pilot.pause()


def user_texts(services: Services) -> list[str]:
    store = services.store
    return [
        record.content
        for conversation in store.list_conversations()
        for record in store.list_messages(conversation.id)
        if record.role == "user"
    ]


async def test_the_menu_filters_chooses_completes_and_closes(services: Services) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await type_in(pilot, "/")
        everything = offered(pilot)
        assert {"help", "model", "export", "search"} <= set(everything)
        assert "invite" not in everything  # the palette does not offer it for this profile

        await type_in(pilot, "re")
        runnable = chat(pilot.app).slash.runnable()
        assert offered(pilot) == [c.name for c in matching("re", runnable)]
        assert offered(pilot)[0].startswith("re")
        await pilot.press("down")
        second = offered(pilot)[1]
        assert menu(pilot).chosen is not None
        assert menu(pilot).chosen.name == second  # type: ignore[union-attr]
        await pilot.press("tab")
        composer = chat(pilot.app).composer
        assert composer.text.rstrip() == f"/{second}"
        assert chat(pilot.app).focused is composer  # Tab completed; it did not move the focus

        for command in runnable:  # every prefix of every name offers that command
            for end in range(len(command.name) + 1):
                composer.load_text("/" + command.name[:end])
                await pilot.pause()
                assert offered(pilot) == [c.name for c in matching(command.name[:end], runnable)]
                assert command.name in offered(pilot)

        composer.clear()
        await type_in(pilot, "/mo")
        assert offered(pilot)[0] == "model"
        await pilot.press("escape")
        assert not menu(pilot).is_open
        assert composer.text == "/mo"  # Escape closes the menu, the draft stays
        await type_in(pilot, "del x")  # a space: the name is typed, no menu
        assert not menu(pilot).is_open


async def test_enter_runs_the_palettes_undo_which_asks_before_the_file_is_written(
    services: Services, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    seed_applied_patch(services, project)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        composer = chat(pilot.app).composer

        async def run(name: str, answer: str) -> None:
            composer.load_text(f"/{name}")
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
            await pilot.press(answer)
            await settle(pilot)

        for name in WRITERS:  # each asks before a file is written; "n" leaves the file
            if name == "redo":
                await run("undo", "y")  # something to redo
            was = (project / "src/app.py").read_text()
            await run(name, "n")
            assert (project / "src/app.py").read_text() == was
            if name == "redo":
                await run("redo", "y")
        assert (project / "src/app.py").read_text() == PATCHED

        await type_in(pilot, "/und")
        assert offered(pilot) == ["undo"]
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        assert (project / "src/app.py").read_text() == PATCHED  # nothing written before yes
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == ORIGINAL

        composer.load_text("/redo")  # typed whole and sent: the same command
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        assert (project / "src/app.py").read_text() == PATCHED
        assert not user_texts(services) or "/redo" not in user_texts(services)


async def test_an_unknown_command_is_sent_only_after_a_yes_and_the_escape_at_once(
    services: Services,
) -> None:
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        composer = chat(pilot.app).composer
        composer.focus()
        composer.load_text("/etc is a folder")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("n")
        await settle(pilot)
        assert user_texts(services) == []
        assert composer.text == "/etc is a folder"  # declined: the draft comes back

        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        assert user_texts(services) == ["/etc is a folder"]

        composer.load_text("//usr is one too")
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert user_texts(services)[-1] == "/usr is one too"


async def test_help_lists_the_commands_and_a_profiles_own_command_runs_its_key(
    services: Services,
) -> None:
    async with new_app(services, profile="paper-pilot").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        await type_in(pilot, "/k")
        assert offered(pilot)[0] == "kb"
        await pilot.press("enter")
        await settle(pilot)
        said = [n.message for n in pilot.app._notifications]
        assert any("knowledge base" in n.casefold() for n in said)

        chat(pilot.app).composer.load_text("/help")
        await pilot.press("enter")
        await settle(pilot)
        [listed] = [n.message for n in pilot.app._notifications if n.title == "Slash commands"]
        assert "/kb" in listed
        assert "/invite" not in listed  # paper-pilot has no shared space: not offered here
        assert user_texts(services) == []


# ------------------------------------------------------------------ snapshot


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("utc")
def test_menu_snapshot(snap_compare: Any, services: Services) -> None:
    async def open_menu(pilot: Pilot[Any]) -> None:
        await chat_ready(pilot)
        await settle(pilot)
        await type_in(pilot, "/e")
        for area in pilot.app.screen.query(TextArea):
            area.cursor_blink = False
        await settle(pilot)

    app = new_app(services, profile="ide-helper", project_root=Path("/srv/projects/demo"))
    assert snap_compare(app, terminal_size=(100, 30), run_before=open_menu)


async def test_every_command_the_composer_offers_runs_the_palettes_own_command(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the command, typed whole and sent, the composer runs the palette's command of
    the same work (never a second implementation); one the palette does not offer now is said,
    and nothing is ever stored as a message."""
    import weaver_tui.screens.chat.screen as chat_screen

    ran: list[str] = []

    async def record(screen: object, item: KeyAction) -> None:
        ran.append(item.command)

    monkeypatch.setattr(chat_screen, "run_action", record)
    seed_applied_patch(services, tmp_path / "project")  # a branch: reply commands can run
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        runnable = [c for c in screen.slash.runnable() if c.palette]
        assert len(runnable) >= 8
        for command in runnable:
            screen.composer.load_text(f"/{command.name}")
            await pilot.press("enter")
            await settle(pilot)
            assert ran[-1] == command.palette, command.name
        assert len(ran) == len(runnable)

        screen.composer.load_text("/invite")  # the palette does not offer it here
        await pilot.press("enter")
        await settle(pilot)
        assert len(ran) == len(runnable)
        assert any("/invite" in n.message for n in pilot.app._notifications)
        assert not isinstance(pilot.app.screen, ConfirmScreen)  # a command, not unknown text
    store = services.store
    counted = sum(len(store.list_messages(c.id)) for c in store.list_conversations())
    assert counted == 6  # the seeded branch only


async def test_an_edited_message_is_never_read_as_a_command(services: Services) -> None:
    """Editing a reply (or a message of yours) that starts with a command's name saves the
    text as its new version: no command runs, no question is asked."""
    store = services.store
    conversation = store.create_conversation("ide-helper", "slashes")
    question = store.add_message(conversation.id, "user", "what do I type?", None)
    reply = store.add_message(conversation.id, "assistant", "/help lists them.", question.id)
    store.set_active_leaf(conversation.id, reply.id)
    async with new_app(services, profile="ide-helper").run_test(size=SIZE) as pilot:
        await chat_ready(pilot)
        await settle(pilot)
        screen = chat(pilot.app)
        screen.selected_id = reply.id
        screen.branching.action_edit_selected()
        await pilot.pause()
        assert not menu(pilot).is_open
        screen.composer.load_text("/help lists the commands.")
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert not [n for n in pilot.app._notifications if n.title == "Slash commands"]
        versions = [r.content for r in store.siblings(reply.id)]
        assert sorted(versions) == ["/help lists the commands.", "/help lists them."]
