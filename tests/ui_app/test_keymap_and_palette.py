"""One keymap drives bindings, help and the command palette; every action has its plain name."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App
from textual.command import CommandInput, CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Static

from tests.ui_app.conftest import SIZE, chat, new_app, wait_until
from weaver_tui.app import WeaverApp
from weaver_tui.core.services import Services
from weaver_tui.keymap import all_actions, keymap_markdown, palette_commands
from weaver_tui.screens.chat.branching import Branching
from weaver_tui.screens.chat.profile_panel import ProfilePanel
from weaver_tui.screens.chat.screen import ChatScreen
from weaver_tui.screens.help import HelpScreen

ISSUE_COMMANDS = {
    "New conversation",
    "Fork from selected message",
    "Edit message",
    "Regenerate reply",
    "Next version",
    "Previous version",
    "Cancel reply",
    "Switch profile",
    "Switch model",
    "Toggle tree",
    "Toggle tool pane",
    "Export conversation",
    "Search conversations",
}


def test_every_issue_command_is_in_the_palette_and_runs_a_chat_action() -> None:
    owners = {"": ChatScreen, "Branching": Branching, "ProfilePanel": ProfilePanel}
    names = {item.command: item for item in palette_commands()}
    assert set(names) >= ISSUE_COMMANDS
    for name in ISSUE_COMMANDS:
        action = names[name].action
        assert action is not None, name
        assert hasattr(owners[names[name].owner], f"action_{action}"), name


def test_bound_keys_are_unique_and_keep_textual_quit_and_copy() -> None:
    keys = [b.key for b in (*WeaverApp.BINDINGS, *ChatScreen.BINDINGS)]  # type: ignore[union-attr]
    # Esc is bound twice: which of its actions applies depends on the chat's state
    assert sorted({k for k in keys if keys.count(k) > 1}) == ["escape"]
    escape_actions = [b.action for b in ChatScreen.BINDINGS if b.key == "escape"]  # type: ignore[union-attr]
    assert escape_actions == ["cancel_reply", "leave_mode"]
    reserved = {binding.key for binding in App.BINDINGS}  # type: ignore[union-attr]
    assert reserved == {"ctrl+q", "ctrl+c"}
    assert not reserved & set(keys)
    assert not {"ctrl+c", "ctrl+v", "ctrl+z"} & set(keys)  # the composer's editing keys
    table = keymap_markdown()
    assert all(f"| {item.command} |" in table for item in all_actions())


def seed_conversation(services: Services) -> str:
    conversation = services.store.create_conversation("atom-developer", "ReWOO")
    question = services.store.add_message(conversation.id, "user", "What does ReWOO do?", None)
    services.store.add_message(conversation.id, "assistant", "It plans first.", question.id)
    return conversation.id


async def palette_run(pilot: Pilot[Any], command: str, *, opened: bool = False) -> None:
    """Open the palette (Ctrl+P; unless ``opened``), search ``command``, run the top hit."""
    if not opened:
        await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
    palette = pilot.app.screen
    palette.query_one(CommandInput).value = command

    def top_hit() -> str:
        hits = palette.query_one(CommandList)
        if not hits.option_count or hits.highlighted is None:
            return ""
        return str(hits.get_option_at_index(hits.highlighted).prompt)

    await wait_until(pilot, lambda: top_hit().startswith(command))
    await pilot.press("enter")
    await wait_until(pilot, lambda: pilot.app.screen is not palette)
    await pilot.pause()


async def test_palette_commands_act_on_the_chat(services: Services) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        side = screen.query_one("#side-pane")
        await palette_run(pilot, "Toggle tool pane")
        assert side.has_class("-hidden")
        await pilot.press("ctrl+g")
        assert not side.has_class("-hidden")
        await palette_run(pilot, "Toggle tree")
        assert screen.tree.has_focus
        screen.open_conversation(seed_conversation(services))
        await pilot.pause()
        assert screen.state.conversation is not None
        await palette_run(pilot, "Export conversation")
        exports = list((services.data_dir / "exports").glob("*/conversation.md"))
        assert len(exports) == 1
        assert "What does ReWOO do?" in exports[0].read_text(encoding="utf-8")
        assert (exports[0].parent / "messages.jsonl").is_file()
        await palette_run(pilot, "New conversation")
        assert screen.state.conversation is None
        assert screen.messages.items == []


async def test_help_lists_every_binding(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        console = Console(width=200, record=True, file=io.StringIO())
        for widget in pilot.app.screen.query(Static):
            console.print(widget.content)
        text = console.export_text()
        for item in all_actions():
            assert item.command in text, item.command
            assert item.description[:30] in text, item.description


async def test_help_has_the_message_views_keys(services: Services) -> None:
    async with new_app(services).run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        console = Console(width=200, record=True, file=io.StringIO())
        for widget in pilot.app.screen.query(Static):
            console.print(widget.content)
        text = console.export_text()
        assert "Messages" in text
        for command in ("Copy message", "Copy code block", "Fold thinking", "Jump to latest"):
            assert command in text, command
        assert "k j" in text  # the vi keys of the message view


async def test_the_palette_copies_the_selected_message(services: Services) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        screen.open_conversation(seed_conversation(services))
        await wait_until(pilot, lambda: screen.state.conversation is not None)
        await palette_run(pilot, "Copy message")
        assert pilot.app.clipboard == "It plans first."
        assert any("Copied" in n.message for n in pilot.app._notifications)


async def test_in_edit_mode_the_footer_offers_leaving_it_not_cancelling_a_reply(
    services: Services,
) -> None:
    async with new_app(services, profile="atom-developer").run_test(size=SIZE) as pilot:
        screen = chat(pilot.app)
        screen.open_conversation(seed_conversation(services))
        await wait_until(pilot, lambda: screen.state.conversation is not None)
        question = screen.messages.items[0]
        screen.selected_id = question.id
        screen.branching.action_edit_selected()
        await pilot.pause()
        escape = screen.active_bindings["escape"].binding
        assert escape.description == "Leave edit or fork mode"
        await pilot.press("escape")
        await pilot.pause()
        assert screen.composer.text == ""
        assert "escape" not in screen.active_bindings  # nothing for Esc to do now
