"""The command palette's weaver commands: every action of :data:`~weaver_tui.keymap.KEYMAP`
under its stable plain name ("New conversation", "Fork from selected message", ...).

The provider runs the action on the screen the palette was opened from, on the widget of that
screen which owns it (``owner``: the branching of the chat's body, its profile panel), or on the
app for ``app.`` actions, so it never imports the app or a screen. Commands the owner cannot
run right now (``check_action`` says no, e.g. "Cancel reply" with no reply running) and
commands of a widget the screen does not have are left out.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode
from textual.screen import Screen

from weaver_tui.keymap import KeyAction, palette_commands


def _owner(screen: Screen[Any], item: KeyAction) -> DOMNode | None:
    """The node whose action ``item`` runs (``None``: not on this screen)."""
    if not item.owner:
        return screen
    found = screen.query(item.owner)
    return found.first() if found else None


def available_actions(screen: Screen[Any]) -> list[KeyAction]:
    """The palette's commands that can run now on ``screen``; each owner is looked up once (a
    query walks the whole screen, and the palette asks again at every key typed into it).
    The composer's slash commands read the same list (:mod:`weaver_tui.screens.chat.slash_dispatch`)."""
    available: list[KeyAction] = []
    owners: dict[str | None, DOMNode | None] = {}
    for item in palette_commands():
        assert item.action is not None
        if item.action.startswith("app."):
            available.append(item)
            continue
        if item.owner not in owners:
            owners[item.owner] = _owner(screen, item)
        owner = owners[item.owner]
        if owner is None:
            continue
        checked = owner.check_action(item.action, ())
        if checked is True and hasattr(owner, f"action_{item.action}"):
            available.append(item)
    # the open profile's own keys, which the screen lists (none on other screens)
    profile_commands = getattr(screen, "profile_commands", None)
    if callable(profile_commands):
        available.extend(profile_commands())
    return available


async def run_action(screen: Screen[Any], item: KeyAction) -> None:
    """Run the palette command ``item`` on ``screen`` (on its owner, or on the app)."""
    assert item.action is not None
    if item.action.startswith("app."):
        await screen.app.run_action(item.action)
    elif (owner := _owner(screen, item)) is not None:
        await screen.app.run_action(item.action, owner)


class WeaverCommands(Provider):
    """Commands for everything weaver can do, with their key in the help text."""

    def _available(self) -> list[KeyAction]:
        return available_actions(self.screen)

    def _help(self, item: KeyAction) -> str:
        key = item.key_display
        return f"{item.description} ({key})" if key else item.description

    async def _run(self, item: KeyAction) -> None:
        await run_action(self.screen, item)

    async def discover(self) -> Hits:
        for item in self._available():
            yield DiscoveryHit(item.command, partial(self._run, item), help=self._help(item))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for item in self._available():
            score = matcher.match(item.command)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(item.command),
                    partial(self._run, item),
                    text=item.command,
                    help=self._help(item),
                )
