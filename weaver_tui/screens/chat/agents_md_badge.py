"""The project's AGENTS.md on the chat screen: a header badge while this conversation's turns
send it, and the switch that turns it off or on for the conversation.

The badge names the file the runtime sends with the system prompt
(:func:`agents.project_instructions.find_project_instructions` on the conversation's project
folder): ``AGENTS.md``, or its path from the root. A conversation that turned the project's
instructions off shows it struck out (``AGENTS.md off``), so a click turns them on again; a
profile that works in no project folder shows none. The switch (the palette's "Project
instructions (AGENTS.md)", or a click on the badge) goes through the chat's controller, which
keeps it in the conversation's meta; the app writes nothing itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from agents.project_instructions import find_project_instructions

if TYPE_CHECKING:
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)

NO_PROJECT_SENTENCE = (
    "This profile works in no project folder, so it reads no AGENTS.md; switch to one that does."
)
NO_FILE_SENTENCE = (
    "The project folder has no AGENTS.md; write one at its top to give every turn its rules."
)
ON_SENTENCE = "The project's {path} goes with this conversation's turns again."
OFF_SENTENCE = "The project's {path} is off for this conversation (and its folders' own files)."


class AgentsMdBadge:
    """The badge and the switch of one chat screen."""

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        controller: ChatController,
        project_dir: Callable[[], Path],
    ) -> None:
        self._surface = surface
        self._state = state
        self._controller = controller
        self._project_dir = project_dir

    def file_in_use(self) -> str | None:
        """The path (from the project root) of the AGENTS.md the turns send, if any."""
        if not self._state.traits.project_root:
            return None
        found = find_project_instructions(self._project_dir())
        return found.relative_path if found else None

    def refresh(self) -> None:
        """Show the badge as the conversation stands."""
        header = self._surface.header
        header.agents_md = self.file_in_use() or ""
        header.agents_md_off = not self._controller.project_instructions_on

    def toggle(self) -> None:
        """Turn the project's instructions off for the conversation, or on again."""
        if not self._state.traits.project_root:
            self._surface.notify(NO_PROJECT_SENTENCE, severity="warning")
            return
        on = not self._controller.project_instructions_on
        self._controller.set_project_instructions(on)
        path = self.file_in_use()
        logger.info("project instructions switched", extra={"on": on, "file": path})
        self.refresh()
        if path is None:
            self._surface.notify(NO_FILE_SENTENCE)
        else:
            self._surface.notify((ON_SENTENCE if on else OFF_SENTENCE).format(path=path))
