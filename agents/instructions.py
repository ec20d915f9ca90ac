"""Extra instructions for one conversation ("answer in French", "be terse"), set by the user.

They are stored on the conversation (``meta["instructions"]``) and added to the profile's
system prompt on every turn of that conversation, under a heading of their own, so the
profile's rules stay first and the user's wishes follow.
"""

from __future__ import annotations

INSTRUCTIONS_MAX_CHARS = 8000
"""Longer instructions are refused (they are sent with every turn)."""
HEADING = "Instructions for this conversation (from the user):"


class InstructionsTooLong(ValueError):
    """Instructions over :data:`INSTRUCTIONS_MAX_CHARS`, with the sentence to show."""


def checked_instructions(text: str) -> str | None:
    """``text`` trimmed, ``None`` when empty; :class:`InstructionsTooLong` when too long."""
    cleaned = text.strip()
    if len(cleaned) > INSTRUCTIONS_MAX_CHARS:
        raise InstructionsTooLong(
            f"Instructions are at most {INSTRUCTIONS_MAX_CHARS:,} characters (these are "
            f"{len(cleaned):,}); they go with every turn, so keep them short."
        )
    return cleaned or None


def with_instructions(system_prompt: str, instructions: object) -> str:
    """The system prompt with the conversation's instructions after it (if any)."""
    if not isinstance(instructions, str) or not instructions.strip():
        return system_prompt
    return f"{system_prompt.rstrip()}\n\n{HEADING}\n{instructions.strip()}\n"
