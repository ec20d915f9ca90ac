"""Writing the conversation out to files: the whole conversation as an export (Markdown and
JSON lines under the data folder), or a reply's artifacts (the files it wrote in its blocks)
into the project, after a confirmation that lists what would be created or overwritten.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from storage.store import StorageError

if TYPE_CHECKING:
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)


class ArtifactSaver:
    """Exports and artifact saves for one chat screen.

    ``surface`` is the screen (confirmations, notifications); ``data_dir`` returns the folder
    exports go under; ``project_dir`` the folder artifacts are saved in.
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        *,
        data_dir: Callable[[], Path],
        project_dir: Callable[[], Path],
        viewer: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._surface = surface
        self._state = state
        self._data_dir = data_dir
        self._project_dir = project_dir
        self._viewer = viewer

    def export_conversation(self) -> None:
        """The open conversation as Markdown (the active path) and JSON lines (every record);
        from a reader's view, only what that reader may read (the store's queries filter)."""
        state = self._state
        conversation = state.conversation
        if conversation is None:
            self._surface.notify("There is nothing to export yet.")
            return
        slug = re.sub(r"[^a-z0-9]+", "-", conversation.title.lower()).strip("-")[:40] or "chat"
        viewer = self._viewer()
        reader = "" if viewer is None else "-" + re.sub(r"[^a-z0-9]+", "-", viewer.lower())
        folder = self._data_dir() / "exports" / f"{slug}-{conversation.id[:8]}{reader}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            markdown = state.store.export_markdown(conversation.id, state.leaf_id, viewer)
            (folder / "conversation.md").write_text(markdown, encoding="utf-8")
            state.store.export_jsonl(conversation.id, folder, viewer)
        except (OSError, StorageError) as exc:
            self._surface.notify(f"Export failed: {exc}", severity="error")
            return
        seen = "" if viewer is None else f" (what {viewer} may read)"
        self._surface.notify(f"Exported to {folder}{seen}", title="Conversation exported")

    def write_space_record(self) -> None:
        """The open space's record (:mod:`agents.shared_space.record`) as Markdown: the shared
        one, or, from one participant's view, that participant's own copy."""
        from agents.shared_space.record import space_record

        conversation = self._state.conversation
        if conversation is None:
            self._surface.notify("There is nothing to record yet.")
            return
        viewer = self._viewer()
        reader = None if viewer in (None, "shared") else viewer
        slug = re.sub(r"[^a-z0-9]+", "-", conversation.title.lower()).strip("-")[:40] or "space"
        who = "" if reader is None else "-" + re.sub(r"[^a-z0-9]+", "-", reader.lower())
        target = self._data_dir() / "exports" / f"{slug}-{conversation.id[:8]}-record{who}.md"
        try:
            text = space_record(self._state.store, conversation.id, reader)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        except (OSError, StorageError, ValueError) as exc:
            self._surface.notify(f"The record was not written: {exc}", severity="error")
            return
        whose = "" if reader is None else f" ({reader}'s own copy)"
        self._surface.notify(f"Wrote the record to {target}{whose}", title="Space record")

    def save_artifacts(self, selected_id: str | None) -> None:
        """Save the artifacts of ``selected_id`` (else the latest reply on the path with some)
        as files of the project, once the user confirms."""
        from weaver_tui.core.artifacts import (
            ArtifactError,
            artifacts_of,
            latest_with_artifacts,
            plan_saves,
            question_for,
            save,
        )
        from weaver_tui.screens.confirm import ConfirmScreen

        index = self._state.index
        selected = (
            index.get(selected_id) if selected_id is not None and selected_id in index else None
        )
        if selected is None or not artifacts_of(selected.meta):
            selected = latest_with_artifacts(index.get(i) for i in self._state.path_ids())
        if selected is None:
            self._surface.notify("No reply here has files to save.")
            return
        root = self._project_dir()
        try:
            planned = plan_saves(root, artifacts_of(selected.meta))
        except ArtifactError as exc:
            self._surface.notify(str(exc), severity="error", title="Not saved")
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                save(planned)
            except OSError as exc:
                self._surface.notify(f"Saving failed: {exc.strerror or exc}", severity="error")
                return
            except ArtifactError as exc:
                self._surface.notify(str(exc), severity="error", title="Not saved")
                return
            names = ", ".join(p.relative for p in planned)
            self._surface.notify(f"Saved {names} under {root}", title="Artifacts saved")

        question = question_for(root, planned)
        replaces = any(item.replaces for item in planned)  # Cancel stays the default then
        self._surface.app.push_screen(
            ConfirmScreen(question, "Save", enter_confirms=not replaces), answered
        )
