"""Slash commands: the one table every front end reads (the composer, ``ask``, the ACP agent),
and how a typed message is told apart from a command.

A message is a command when it starts with ``/`` followed at once by a command's name and then
the end or white space (its argument, trimmed, follows). ``//`` escapes: ``//etc`` is the text
``/etc``. A message that starts with one ``/`` but names no command is ``unknown``: a front end
never sends it as text unasked (the user may have mistyped a command), it says so or asks first.

Each command says which front ends run it (:data:`FrontEnd`); a front end lists and runs only
those. In the composer a command runs the command palette's command it names (``palette``), so
there is one implementation of each; a profile's own commands are declared once in its folder
(:class:`agents.profile.ProfileKey` with a ``slash`` name) and join the table while it is open.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

FrontEnd = Literal["composer", "acp", "ask"]
EVERYWHERE: frozenset[FrontEnd] = frozenset(("composer", "acp", "ask"))


@dataclass(frozen=True, slots=True)
class SlashCommand:
    """One command: its name (without the slash), what it does, what its argument is, which
    front ends run it, and the palette command it runs in the composer."""

    name: str
    description: str
    hint: str | None = None
    """What to type after the name (``None``: it takes no argument)."""
    front_ends: frozenset[FrontEnd] = EVERYWHERE
    palette: str = ""
    """The command palette's command the composer runs (empty: the composer's own answer)."""
    writes_files: bool = False
    """It writes the project's files: every front end asks first (``ask`` wants ``--yes``)."""
    profile_key: int | None = None
    """For a profile's own command: the index of its :class:`~agents.profile.ProfileKey`."""


class DeclaredCommand(Protocol):
    """A profile's own command as its folder declares it (:class:`agents.profile.ProfileKey`)."""

    @property
    def command(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def slash(self) -> str: ...
    @property
    def front_ends(self) -> frozenset[FrontEnd]: ...


def _only(*front_ends: FrontEnd) -> frozenset[FrontEnd]:
    return frozenset(front_ends)


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("help", "List the slash commands."),
    SlashCommand(
        "model",
        "Show the model, or choose one of the models offered.",
        "model",
        palette="Switch model",
    ),
    SlashCommand(
        "profile",
        "Show the profile, or choose another before the first message.",
        "profile",
        palette="Switch profile",
    ),
    SlashCommand(
        "fork",
        "The next message starts a new branch from the selected message.",
        front_ends=_only("composer"),
        palette="Fork from selected message",
    ),
    SlashCommand(
        "edit",
        "Put the selected message in the composer to send (or save) a new version.",
        front_ends=_only("composer"),
        palette="Edit message",
    ),
    SlashCommand(
        "regenerate",
        "Write a new version of the selected (else the latest) reply.",
        front_ends=_only("composer", "ask"),
        palette="Regenerate reply",
    ),
    SlashCommand(
        "undo",
        "Revert the latest patch applied on this branch (asks first).",
        front_ends=EVERYWHERE,
        palette="Undo last patch",
        writes_files=True,
    ),
    SlashCommand(
        "redo",
        "Apply again the patch undone last on this branch (asks first).",
        front_ends=EVERYWHERE,
        palette="Redo patch",
        writes_files=True,
    ),
    SlashCommand(
        "summarise",
        "Replace all but the latest messages of this branch, for the model, by a summary.",
        front_ends=_only("composer"),
        palette="Summarise older turns",
    ),
    SlashCommand(
        "export",
        "Export the conversation as Markdown.",
        front_ends=EVERYWHERE,
        palette="Export conversation",
    ),
    SlashCommand(
        "instructions",
        "Show this conversation's instructions, or set them (the composer opens the editor).",
        "instructions",
        front_ends=_only("composer", "ask"),
        palette="Set instructions",
    ),
    SlashCommand(
        "search",
        "Search every conversation for words.",
        "query",
        front_ends=EVERYWHERE,
        palette="Search conversations",
    ),
    SlashCommand(
        "invite",
        "Serve this shared space to its participants, one link each.",
        front_ends=_only("composer"),
        palette="Invite participants",
    ),
)


def commands_for(
    front_end: FrontEnd, profile_keys: Iterable[DeclaredCommand] = ()
) -> tuple[SlashCommand, ...]:
    """The commands ``front_end`` runs: the table's, then the open profile's own (its keys
    that declare a ``slash`` name and take in this front end); a profile's name that is
    already the table's is left out, so the table's meaning never changes under a profile."""
    found = [c for c in COMMANDS if front_end in c.front_ends]
    taken = {c.name for c in COMMANDS}
    for index, key in enumerate(profile_keys):
        if key.slash and key.slash not in taken and front_end in key.front_ends:
            taken.add(key.slash)
            found.append(
                SlashCommand(
                    key.slash,
                    key.description,
                    front_ends=frozenset(key.front_ends),
                    palette=key.command,
                    profile_key=index,
                )
            )
    return tuple(found)


def runs_elsewhere(name: str, front_end: FrontEnd) -> str:
    """Why ``/name`` is no command of ``front_end`` when it is one of another (``/fork`` in
    ``ask``): the clause to say after its name; empty when no front end knows it."""
    command = command_named(name)
    if command is None or front_end in command.front_ends:
        return ""
    where = {"composer": "the app's composer", "acp": "an editor (ACP)", "ask": "ask"}
    places = " and ".join(where[f] for f in ("composer", "ask", "acp") if f in command.front_ends)
    return f"runs in {places} only"


def command_named(name: str, commands: Iterable[SlashCommand] = COMMANDS) -> SlashCommand | None:
    return next((c for c in commands if c.name == name), None)


@dataclass(frozen=True, slots=True)
class SlashInput:
    """What a typed message is: ``text`` to send (``text``), a ``command`` with its
    ``argument``, or ``unknown`` (one slash, no such command: ``name`` is what was typed)."""

    kind: Literal["text", "command", "unknown"]
    text: str
    name: str = ""
    argument: str = ""


def parse_slash(message: str, commands: Iterable[SlashCommand] = COMMANDS) -> SlashInput:
    """What ``message`` is (see the module's rules), against ``commands`` (default: the
    whole table; a front end passes :func:`commands_for` its own)."""
    if message.startswith("//"):
        return SlashInput("text", message[1:])
    if not message.startswith("/"):
        return SlashInput("text", message)
    body = message[1:]
    parts = body.split(maxsplit=1) if body[:1] and not body[:1].isspace() else []
    name = parts[0] if parts else ""
    if command_named(name, commands) is not None:
        return SlashInput("command", message, name, parts[1].strip() if len(parts) > 1 else "")
    return SlashInput("unknown", message, name)


def matching(query: str, commands: Iterable[SlashCommand]) -> list[SlashCommand]:
    """The commands a menu offers for ``query`` (what follows the ``/``): those whose name
    starts with it, in the table's order, then those that hold its letters in order; case is
    ignored and every command is offered for an empty query."""
    wanted = query.casefold()
    listed = list(commands)
    first = [c for c in listed if c.name.casefold().startswith(wanted)]
    rest = [c for c in listed if c not in first and _in_order(wanted, c.name.casefold())]
    return first + rest


def _in_order(letters: str, name: str) -> bool:
    found = iter(name)
    return all(letter in found for letter in letters)


def help_text(commands: Iterable[SlashCommand]) -> str:
    """The commands, one line each, for ``/help``."""
    lines = ["The slash commands (start a message with // to send it as text):"]
    for command in commands:
        argument = f" [{command.hint}]" if command.hint else ""
        lines.append(f"- /{command.name}{argument}: {command.description}")
    return "\n".join(lines)
