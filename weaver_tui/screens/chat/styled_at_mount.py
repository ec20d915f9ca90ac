"""A screen's first time on top without a second styling of every widget in it.

When a screen comes on top (``ScreenResume``), Textual restyles every widget of it: a screen
coming back may have missed a change of theme while it was under another. The first time, the
screen has only just mounted: each widget was styled as it mounted, and restyles itself on
every change since (a class set, the focus), so the whole pass gives each widget the styles it
has. On the chat screen that pass was 43 of the 144 stylings of a launch (counting the
component classes of each widget, styled with it).
"""

from __future__ import annotations

from typing import Protocol

from textual import events


class _OnTop(Protocol):
    """A screen as this module sees it: how many times it has come on top or gone under."""

    stack_updates: int


def keep_mount_styles(screen: _OnTop, event: events.ScreenResume) -> None:
    """For a screen's ``ScreenResume`` handler (Textual's own runs after it): the first time,
    skip the restyle; every later time (back from under another screen), restyle."""
    if not screen.stack_updates:
        event.refresh_styles = False
