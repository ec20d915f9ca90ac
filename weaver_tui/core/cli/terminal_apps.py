"""The Textual apps the command starts, handed to it from above.

The command line is headless: ``ask``, ``acp``, the store verbs and a space's server run
without Textual. Two verbs start a terminal app: no verb at all (the chat app) and ``space
seat`` (one participant's seat). The entry point in the app package (:mod:`weaver_tui.launch`)
passes them in, so nothing in the headless core imports the app.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from weaver_tui.core.services import Services


class RunnableApp(Protocol):
    """What the command needs of the chat app: run it, then read how it ended."""

    @property
    def return_code(self) -> int | None: ...

    def run(self) -> object: ...


@dataclass(frozen=True, slots=True)
class TerminalApps:
    chat: Callable[[Services, argparse.Namespace], RunnableApp]
    """The chat app for these services and options (not yet running)."""
    seat: Callable[[argparse.Namespace], int]
    """Runs one participant's seat to its end; its exit code."""
