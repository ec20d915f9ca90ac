"""Text that is not the user's, put into a system message, quoted line by line.

A system message speaks with the app's headings: the user's instructions for the conversation,
a summary of the earlier turns, the project's instructions. What follows some of them is not
the app's own text: a project's ``AGENTS.md`` (anyone's), a summary a model wrote from the
conversation (which can repeat anything a file or a tool said). Each of its lines is sent
quoted (``> ``), so no line of it can stand as one of the app's headings: a text that writes
"Instructions for this conversation (from the user):" is read as quoted, never as the user
speaking. Only the app's own lines start unquoted.
"""

from __future__ import annotations


def quoted(text: str) -> str:
    """``text`` with every line (an empty one too, and after any line break Python knows:
    ``\\r``, U+2028 ...) starting ``> ``, one Markdown quote line per line."""
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines() or [""])
