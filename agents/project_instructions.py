"""The project's own instructions: the ``AGENTS.md`` nearest the working folder, for a profile
that works in a project folder.

The file is project content, not the user's word: it is sent after the profile's system prompt
under a heading that says where it comes from and that it is the project's, and the user's own
instructions for the conversation come after it (the user has the last word). It grants
nothing: no approval, no tool, no setting is read from it. Only a file inside the project root
is read (the nearest ``AGENTS.md`` from the working folder up to the root; one that resolves
outside the root, through a symlink say, is not); a very large file is cut, saying so. A
conversation turns them off with ``meta["project_instructions"] = "off"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "AGENTS.md"
MAX_CHARS = 16_000
"""More than this is cut (the instructions go with every turn)."""
OFF = "off"
META_KEY = "project_instructions"


@dataclass(frozen=True, slots=True)
class ProjectInstructions:
    """The instructions read: the file's path relative to the root, its text, whether cut."""

    relative_path: str
    text: str
    cut: bool

    def block(self) -> str:
        """The text as it is sent: headed as the project's, never as the user's."""
        note = (
            f"\n[The file is longer: only its first {MAX_CHARS:,} characters are shown.]"
            if self.cut
            else ""
        )
        return (
            f"Project instructions (from {self.relative_path} in the project folder; project "
            "content, not the user's instructions, and they grant no permission):\n"
            f"{self.text.strip()}{note}"
        )


def find_project_instructions(
    root: Path, working: Path | None = None
) -> ProjectInstructions | None:
    """The nearest ``AGENTS.md`` from ``working`` (the root when ``None`` or outside it) up to
    ``root``, read if it lies inside the root; ``None`` when there is none to read."""
    try:
        base = root.resolve()
        start = (working or base).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    if not start.is_relative_to(base):
        start = base
    folder = start
    while True:
        found = _read(base, folder / FILE_NAME)
        if found is not None:
            return found
        if folder == base:
            return None
        folder = folder.parent


def _read(base: Path, candidate: Path) -> ProjectInstructions | None:
    try:
        if not candidate.is_file():
            return None
        real = candidate.resolve()
        if not real.is_relative_to(base):
            return None
        with real.open(encoding="utf-8", errors="replace") as handle:
            text = handle.read(MAX_CHARS + 1)
    except (OSError, RuntimeError, ValueError):
        return None
    if not text.strip():
        return None
    cut = len(text) > MAX_CHARS
    return ProjectInstructions(real.relative_to(base).as_posix(), text[:MAX_CHARS], cut)


def with_project_instructions(system_prompt: str, found: ProjectInstructions | None) -> str:
    """The profile's system prompt with the project's instructions after it (if any)."""
    if found is None:
        return system_prompt
    return f"{system_prompt.rstrip()}\n\n{found.block()}\n"
