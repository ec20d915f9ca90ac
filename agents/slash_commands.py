"""Slash commands: the one table every front end reads (the ACP agent today; the composer and
``ask`` read the same table), and how a typed message is told apart from a command.

A message is a command when it starts with ``/`` followed at once by a command's name and then
the end or white space (its argument, trimmed, follows). ``//`` escapes: ``//etc`` is the text ``/etc``. A message
that starts with one ``/`` but names no command is ``unknown``: a front end never sends it as
text unasked (the user may have mistyped a command), it says so or asks first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class SlashCommand:
    """One command: its name (without the slash), what it does, what its argument is."""

    name: str
    description: str
    hint: str | None = None
    """What to type after the name (``None``: it takes no argument)."""


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("help", "List the slash commands."),
    SlashCommand(
        "model", "Show the session's model, or choose one of the models offered.", "model"
    ),
    SlashCommand(
        "profile",
        "Show the session's profile, or choose another before the first message.",
        "profile",
    ),
)


def command_named(name: str) -> SlashCommand | None:
    return next((c for c in COMMANDS if c.name == name), None)


@dataclass(frozen=True, slots=True)
class SlashInput:
    """What a typed message is: ``text`` to send (``text``), a ``command`` with its
    ``argument``, or ``unknown`` (one slash, no such command: ``name`` is what was typed)."""

    kind: Literal["text", "command", "unknown"]
    text: str
    name: str = ""
    argument: str = ""


def parse_slash(message: str) -> SlashInput:
    """What ``message`` is (see the module's rules)."""
    if message.startswith("//"):
        return SlashInput("text", message[1:])
    if not message.startswith("/"):
        return SlashInput("text", message)
    body = message[1:]
    parts = body.split(maxsplit=1) if body[:1] and not body[:1].isspace() else []
    name = parts[0] if parts else ""
    if command_named(name) is not None:
        return SlashInput("command", message, name, parts[1].strip() if len(parts) > 1 else "")
    return SlashInput("unknown", message, name)
