"""Slash commands over ACP: the shared table (:mod:`agents.slash_commands`) as the session's
available commands, and the answer to a prompt that is one.

A command is not a message of the conversation: nothing is stored, the answer comes as the
agent's text and the prompt ends with ``end_turn``. A prompt with one slash that names no
command is refused with one sentence (``//`` sends it as text), never sent to the model unasked.
"""

from __future__ import annotations

from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    AvailableCommandsUpdate,
    UnstructuredCommandInput,
)

from agents.slash_commands import SlashCommand, commands_for, runs_elsewhere
from agents.slash_commands import help_text as slash_help
from storage.printable import printable
from weaver_tui.core.acp_agent.failures import turn_failure


def acp_commands(profile: str) -> tuple[SlashCommand, ...]:
    """The commands an ACP session of ``profile`` runs: the table's and the profile's own."""
    from agents.profile_registry import get_traits

    return commands_for("acp", get_traits(profile).keys)


def available_commands(profile: str) -> AvailableCommandsUpdate:
    """Every command an ACP session of ``profile`` runs, with its argument's hint."""
    return AvailableCommandsUpdate(
        session_update="available_commands_update",
        available_commands=[
            AvailableCommand(
                name=command.name,
                description=command.description,
                input=AvailableCommandInput(UnstructuredCommandInput(hint=command.hint))
                if command.hint
                else None,
            )
            for command in acp_commands(profile)
        ],
    )


def help_text(profile: str) -> str:
    return slash_help(acp_commands(profile))


def unknown_command(name: str) -> Exception:
    why = runs_elsewhere(name, "acp") or "is not a command"
    return turn_failure(
        f"/{printable(name)[:40]} {why}: /help lists them, and a message that starts "
        "with // is sent as text.",
        "unknown_command",
    )
