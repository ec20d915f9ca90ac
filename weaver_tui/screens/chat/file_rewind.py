"""Rewind the project's files with the branch: revert the patches accepted after the message
you go back to, re-apply them when you come back, or undo and redo one patch at a time.

The work is :mod:`agents.patch_review.rewind` (each file written only while it holds the text
expected, through the confined file path); this piece asks first when a move in the tree
concerns patches, says what each revert or redo did (a conflict in the error colour, naming
the file) and redraws the tree, whose patch lines say ``applied`` or ``reverted``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from weaver_tui.messages import PathChanged

if TYPE_CHECKING:
    from agents.patch_review.rewind import Direction, PatchOnBranch
    from storage.models import MessageRecord
    from weaver_tui.core.chat_controller import ChatController
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)


class FileRewind:
    """Reverting and re-applying accepted patches for one chat screen (``project_dir``: the
    conversation's project root)."""

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

    def offer_after_checkout(self, old_leaf: str, target_id: str) -> None:
        """After checking out ``target_id`` (the chat was at ``old_leaf``): ask whether to
        revert the patches accepted after it, and re-apply those of the branch now shown."""
        from agents.patch_review.rewind import accepted_on, patches_to_rewind
        from weaver_tui.screens.confirm import ConfirmScreen

        store, leaf = self._state.store, self._state.leaf_id
        if leaf is None:
            return
        old_path, new_path = store.path_to_root(old_leaf), store.path_to_root(leaf)
        accepted = accepted_on(store, old_path, new_path)
        revert, redo = patches_to_rewind(old_path, new_path, target_id, accepted)
        if not revert and not redo:
            return
        lines = [f"revert {p.summary}" for p in revert] + [f"re-apply {p.summary}" for p in redo]
        question = "Rewind the files to this message? " + "; ".join(lines) + "."

        def answered(yes: bool | None) -> None:
            if yes:
                self._run([(p, "revert") for p in revert] + [(p, "redo") for p in redo])
            else:
                self._surface.notify("Files left as they are.")

        self._surface.app.push_screen(ConfirmScreen(question, "Rewind files"), answered)

    def offer_restore(
        self, point_id: str | None, proceed: Callable[[], object], cancelled: Callable[[], object]
    ) -> None:
        """Before going back to ``point_id`` (regenerate, resend an edit, fork): when patches
        were applied after it on the branch shown, ask "conversation only" or "conversation
        and files" first (:mod:`agents.patch_review.restore_point`); the files choice reverts
        exactly those patches, all or nothing, and goes on only when they all were (else the
        conflict is shown, nothing is written, and ``cancelled`` runs, as for Esc)."""
        from agents.patch_review.restore_point import patches_after
        from weaver_tui.screens.restore_choice import RestoreChoice, RestoreChoiceScreen

        leaf = self._state.leaf_id
        patches = [] if leaf is None else patches_after(self._state.store, leaf, point_id)
        if not patches:
            proceed()
            return
        names = ", ".join(p.summary for p in patches)
        question = (
            f"Patches were applied after this message ({names}). Go back in the conversation "
            "only, or in the conversation and the files (reverting them)?"
        )

        def answered(choice: RestoreChoice | None) -> None:
            if choice == "conversation" or (
                choice == "files" and self._run([(p, "revert") for p in patches])
            ):
                proceed()
            else:
                cancelled()

        self._surface.app.push_screen(RestoreChoiceScreen(question), answered)

    def undo_last(self) -> None:
        """Revert the latest patch accepted here and applied on the shown branch, once the
        user confirms (the question names the file)."""
        self._step("revert", "Undo patch {}?", "Undo")

    def redo(self) -> None:
        """Re-apply the earliest reverted patch of the shown branch (the last one undone),
        once the user confirms (the question names the file)."""
        self._step("redo", "Re-apply patch {}?", "Redo")

    def _step(self, direction: Direction, question: str, yes: str) -> None:
        from agents.patch_review.rewind import NOTHING_TO_REWIND, next_to_rewind

        patch = next_to_rewind(self._state.store, self._path(), direction)
        if patch is None:
            self._surface.notify(NOTHING_TO_REWIND[direction])
            return
        self._confirm(patch, direction, question.format(patch.summary), yes)

    def _confirm(self, patch: PatchOnBranch, direction: Direction, question: str, yes: str) -> None:
        from weaver_tui.screens.confirm import ConfirmScreen

        def answered(confirmed: bool | None) -> None:
            if confirmed:
                self._run([(patch, direction)])
            else:
                self._surface.notify("Files left as they are.")

        self._surface.app.push_screen(ConfirmScreen(question, yes), answered)

    def _path(self) -> list[MessageRecord]:
        leaf = self._state.leaf_id
        return [] if leaf is None else self._state.store.path_to_root(leaf)

    def _run(self, steps: Sequence[tuple[PatchOnBranch, Direction]]) -> bool:
        """Take all of ``steps`` or none and say what happened; whether they all were."""
        if self._surface.running:
            self._surface.notify("Wait for the reply to finish (or press Esc) first.")
            return False
        # all of the steps or none (a conflict in one leaves every file as it was)
        outcomes = self._controller.rewind_all(self._project_dir(), steps)
        for outcome in outcomes:
            if outcome.done:
                self._surface.notify(outcome.message)
            else:
                self._surface.notify(outcome.message, severity="error", title="Conflict")
            if outcome.record is not None:  # as written (and applied to the state)
                self._surface.tree.update_record(outcome.record)
        self._surface.post_message(PathChanged())
        return all(outcome.done for outcome in outcomes)
