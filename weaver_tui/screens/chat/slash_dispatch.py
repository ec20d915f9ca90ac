"""Slash commands in the chat's composer: the menu while a command's name is typed, and what
Enter does with a message that starts with ``/``.

Typing ``/`` opens the menu (:class:`~weaver_tui.widgets.slash_menu.SlashMenu`) with the
commands that can run now, filtered as the name grows (:func:`agents.slash_commands.matching`);
Up/Down choose, Tab completes the name, Enter runs the chosen one, Escape closes the menu. A
command typed with an argument uses it where the command takes one (``/search WORDS`` searches
for them, ``/profile NAME`` opens that profile, ``/instructions TEXT`` sets them); otherwise a
command runs the command palette's own command (:func:`weaver_tui.commands.run_action`, which
the screen hands in): one implementation for the palette, the keys and the composer, and the
palette's questions with it (``/undo`` and ``/redo`` ask before a file is written). ``/help``
lists the commands.

While a message is being edited (its new version in the composer) nothing is a command: the
text is the message. A message sent with ``//`` goes at once as the text after the first
slash; one that starts with ``/`` and names no command is sent as text only after the user
confirms (a mistyped command never reaches the model unasked); declining puts it back in the
composer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from agents.slash_commands import (
    SlashCommand,
    commands_for,
    help_text,
    matching,
    parse_slash,
)
from storage.printable import printable

if TYPE_CHECKING:
    from agents.profile import ProfileKey
    from weaver_tui.keymap import KeyAction
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.widgets.slash_menu import SlashMenu

logger = logging.getLogger(__name__)

MENU_KEYS = frozenset({"up", "down", "tab", "enter", "escape"})


class SlashDispatch:
    """The composer's slash commands on one chat screen: ``palette`` lists the palette's
    commands that can run now and ``run_palette`` runs one (:mod:`weaver_tui.commands`)."""

    def __init__(
        self,
        surface: ChatSurface,
        menu: Callable[[], SlashMenu],
        *,
        palette: Callable[[], list[KeyAction]],
        run_palette: Callable[[KeyAction], Awaitable[None]],
        profile_keys: Callable[[], tuple[ProfileKey, ...]],
        send: Callable[[str], None],
        editing: Callable[[], bool] = lambda: False,
        with_argument: Mapping[str, Callable[[str], None]] | None = None,
    ) -> None:
        self._screen = surface
        self._palette = palette
        self._run_palette = run_palette
        self._menu = menu
        self._profile_keys = profile_keys
        self._send = send
        self._editing = editing
        self._with_argument = dict(with_argument or {})
        """The commands that use an argument typed after their name (``/search WORDS``):
        given one, it runs with it instead of opening the palette's command."""

    def takes_argument(self, name: str) -> bool:
        """Whether ``/name ARGUMENT`` runs with its argument here."""
        return name in self._with_argument

    def commands(self) -> tuple[SlashCommand, ...]:
        """Every command the composer knows, with the open profile's own."""
        return commands_for("composer", self._profile_keys())

    def runnable(self) -> list[SlashCommand]:
        """The commands that can run now (the palette offers their command), and ``/help``."""
        offered = {item.command for item in self._palette()}
        return [c for c in self.commands() if not c.palette or c.palette in offered]

    # ------------------------------------------------------------------ the menu

    def changed(self, text: str) -> None:
        """The composer's text changed: offer the commands while a name is being typed."""
        menu = self._menu()
        name = text[1:]
        if not text.startswith("/") or text.startswith("//") or _has_space(name) or self._editing():
            if menu.is_open:
                menu.close()
            return
        menu.offer(matching(name, self.runnable()))

    def key(self, key: str) -> bool:
        """A key the composer got: ``True`` when the open menu took it."""
        menu = self._menu()
        if not menu.is_open or key not in MENU_KEYS:
            return False
        if key in ("up", "down"):
            menu.move(-1 if key == "up" else 1)
        elif key == "escape":
            menu.close()
        elif (chosen := menu.chosen) is not None and key == "tab":
            composer = self._screen.composer
            composer.load_text(f"/{chosen.name}" + (" " if chosen.hint else ""))
            composer.move_cursor(composer.document.end)
            menu.close()
        elif chosen is not None:  # enter: run it
            menu.close()
            self._screen.composer.clear()
            self.run(chosen, "")
        return True

    # ------------------------------------------------------------------ sending

    def submitted(self, text: str) -> bool:
        """What Enter sent: ``True`` when it was a command, an escape or an unknown command
        (handled here), ``False`` for plain text the caller sends as usual. While a message
        is being edited the composer holds that message's text: it is sent (or saved) as
        written, never read as a command."""
        if self._editing():
            return False
        typed = parse_slash(text, self.commands())
        if typed.kind == "text":
            if typed.text == text:
                return False
            self._send(typed.text)  # ``//...``: the text after the first slash, at once
            return True
        if typed.kind == "command":
            command = next(c for c in self.commands() if c.name == typed.name)
            self.run(command, typed.argument)
            return True
        self._confirm_text(text, typed.name)
        return True

    def run(self, command: SlashCommand, argument: str) -> None:
        """Run ``command``: the palette's command it names, or the list for ``/help``."""
        screen = self._screen
        if not command.palette:
            screen.notify(
                help_text(self.runnable()), title="Slash commands", timeout=15, markup=False
            )
            return
        item = self._palette_item(command)
        if item is None:
            screen.notify(
                f"/{command.name} cannot run here now; /help lists what can.",
                severity="warning",
                markup=False,
            )
            return
        if argument and (takes := self._with_argument.get(command.name)) is not None:
            logger.info("slash command", extra={"command": command.name, "argument": True})
            takes(argument)
            return
        if argument:
            screen.notify(
                f"/{command.name} takes no argument in the composer: it opens "
                f"“{command.palette}”, where you choose.",
                markup=False,
            )
        logger.info("slash command", extra={"command": command.name})
        screen.run_worker(self._run_palette(item), group="slash-command")

    def _palette_item(self, command: SlashCommand) -> KeyAction | None:
        return next((i for i in self._palette() if i.command == command.palette), None)

    def _confirm_text(self, text: str, name: str) -> None:
        from weaver_tui.screens.confirm import ConfirmScreen

        shown = printable(name)[:40]
        question = (
            f"/{shown} is not a command. Send the message as text? "
            "(A message that starts with // is sent as text at once.)"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(text)
            else:
                self._screen.composer.set_draft(text)

        self._screen.app.push_screen(ConfirmScreen(question, "Send", enter_confirms=True), answered)


def _has_space(text: str) -> bool:
    return any(character.isspace() for character in text)
