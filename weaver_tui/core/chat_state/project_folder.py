"""Where the chat works: the folder the app was started for and the open conversation's own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from weaver_tui.core.chat_state import ChatState


class ProjectFolder:
    """The launch folder (``--project-root``, else the working folder) and the project folder of
    the open conversation (the root it keeps in its meta, else the launch folder)."""

    def __init__(self, state: ChatState, project_root: Path | None) -> None:
        self._state = state
        self._project_root = project_root

    def launch_dir(self) -> Path:
        """The folder the app works in for new conversations (``--project-root`` or here)."""
        return self._project_root or Path.cwd()

    def stored_root(self) -> str | None:
        """The project root the open conversation keeps, if it keeps one."""
        conversation = self._state.conversation
        stored = conversation.meta.get("project_root") if conversation else None
        return str(stored) if stored else None

    def project_dir(self) -> Path:
        stored = self.stored_root()
        return Path(stored) if stored else self.launch_dir()
