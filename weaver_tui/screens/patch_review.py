"""The human review of one ide-helper patch: read the diff, then accept, reject or decide later.

The ide-helper never writes a file on its own: ``propose_edit`` makes a
:class:`~agents.patch_review.patches.Patch` and the turn pauses (LangGraph
``interrupt()``) until a person decides. This modal screen is that decision; it writes no
file. Accept checks with :func:`~agents.patch_review.patches.check_patch` that the patch still
applies (the file still has the content the patch was made from) and the resumed turn's review
node applies it (atomic write) where the outcome is recorded, so a resume that never runs
leaves the file and the conversation agreeing; reject runs
:func:`~agents.patch_review.patches.reject_patch`. It dismisses with a
:class:`PatchDecision` the chat screen resumes the paused turn with::

    def done(decision: PatchDecision | None) -> None:
        if decision is not None and decision.resumes_turn:
            ...resume_turn(record_id, value=resume_value(decision.decision))
    app.push_screen(PatchReviewScreen(patch, project_root), done)

Keys: ``a`` accept, ``r`` / ``x`` reject, ``Esc`` decide later (the review stays pending and
can be opened again). When accepting meets a conflict (the file changed since the patch was
proposed) the file is left alone, the reason is shown in the error colour, and the keys become
``a`` try again (e.g. after restoring the file), ``r`` reject, ``c`` close and tell the model
(dismisses as ``accept`` with ``applied=False``: resuming with "accept" lets the review node
record the conflict, so the model reads it and proposes a new edit), ``Esc`` later.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer, Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from agents.errors import WeaverError
from agents.patch_review.patches import (
    Patch,
    PatchConflict,
    check_patch,
    failure_reason,
    line_span,
    reject_patch,
)
from agents.patch_review.review_text import review_text
from storage.printable import printable
from weaver_tui.widgets.footer import WeaverFooter

logger = logging.getLogger(__name__)

DecisionKind = Literal["accept", "reject", "later"]

DARK_DIFF_THEME = "monokai"
"""Pygments style for the diff under a dark app theme (its background is replaced by ours)."""
LIGHT_DIFF_THEME = "default"
"""Pygments style for the diff under a light app theme."""


@dataclass(frozen=True, slots=True)
class PatchDecision:
    """What the person decided and what it did.

    ``decision`` is ``"accept"``, ``"reject"`` or ``"later"`` (the review stays pending).
    ``applied`` says whether the patch was accepted and applies (the resumed turn writes it).
    ``message`` is the sentence to show the person: "You accepted patch p-1 ...", the conflict
    sentence, "You rejected patch ...", or "" for later.
    """

    decision: DecisionKind
    applied: bool
    message: str

    @property
    def resumes_turn(self) -> bool:
        """Whether the paused turn should be resumed now (with ``{"decision": decision}``)."""
        return self.decision != "later"


def diff_counts(diff: str) -> tuple[int, int]:
    """Lines added and removed by a unified diff (file header lines not counted)."""
    lines = diff.splitlines()
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return added, removed


class PatchReviewScreen(ModalScreen[PatchDecision]):
    """A modal review of ``patch`` (a path relative to ``project_root``): diff, keys, outcome."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Accept"),
        Binding("a", "retry", "Try again"),
        Binding("r,x", "reject", "Reject"),
        Binding("c", "report_conflict", "Close, tell the model"),
        Binding("escape", "later", "Decide later"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | a | Accept: apply the patch to the file (try again after a conflict). |
    | r, x | Reject: discard the patch; the file is not changed. |
    | c | After a conflict: close and let the model know it must read the file again. |
    | escape | Decide later: close, the review stays pending. |
    """

    DEFAULT_CSS = """
    PatchReviewScreen {
        align: center middle;
        background: $background 60%;
        & > #review-dialog {
            width: 94%;
            height: 1fr;
            margin: 1 0 0 0;
            padding: 0 1;
            border: thick $primary 70%;
            border-title-color: $text;
            border-title-style: bold;
            background: $surface;
        }
        & #review-header { height: auto; margin-bottom: 1; }
        & #review-diff {
            height: 1fr;
            background: $background;
            scrollbar-gutter: stable;
        }
        & #review-diff > Static { width: auto; }
        & #review-error {
            display: none;
            height: auto;
            margin-top: 1;
            color: $text-error;
            background: $error-muted;
            padding: 0 1;
        }
        & #review-error.-shown { display: block; }
    }
    """

    conflict: reactive[str] = reactive("", init=False)
    """The sentence of the last failed accept ("" when there is none): shown in ``$error``."""

    def __init__(self, patch: Patch, project_root: Path) -> None:
        super().__init__()
        self.patch = patch
        self.project_root = project_root

    def compose(self) -> ComposeResult:
        with Vertical(id="review-dialog") as dialog:
            dialog.border_title = f"Review patch {self.patch.id}"
            yield Static(self._header(), id="review-header", markup=False)
            with ScrollableContainer(id="review-diff"):
                yield Static(id="review-diff-text", markup=False)
            yield Static(id="review-error", markup=False)
        yield WeaverFooter()

    def on_mount(self) -> None:
        self._show_diff()
        self.watch(self.app, "theme", self._theme_changed, init=False)
        self.query_one("#review-diff").focus()

    def _header(self) -> Content:
        added, removed = diff_counts(self.patch.diff)
        new_file = "  [$text-accent]new file[/]" if self.patch.base_sha256 is None else ""
        return Content.from_markup(
            f"[b]$path[/]  [$text-success]+$added[/] [$text-error]-$removed[/]{new_file}\n"
            "[dim]$span proposed by the ide-helper; nothing is written until you accept[/]",
            path=printable(review_text(self._shown_path())),
            added=added,
            removed=removed,
            span=line_span(self.patch.start_line, self.patch.end_line),
        )

    def _shown_path(self) -> str:
        """The file's path in the project, or in full when the patch was made in another
        folder than this screen's project (it is written there: see ``Patch.folder``)."""
        folder = self.patch.folder(self.project_root)
        if os.path.realpath(folder) == os.path.realpath(self.project_root):
            return self.patch.path
        return str(folder / self.patch.path)

    def _theme_changed(self, _theme: str) -> None:
        self.call_after_refresh(self._show_diff)  # once the new theme's CSS is applied

    def _show_diff(self) -> None:
        """Render the diff with a Pygments style that suits the app theme's darkness, on the
        view's own background (not the style's), so it sits in the theme like the rest."""
        text = self.query_one("#review-diff-text", Static)
        # the diff quotes a project file and the model's edit: every character it writes is
        # shown (a control or hidden one as <U+XXXX>), and nothing reaches the terminal raw
        diff = printable(review_text(self.patch.diff)).rstrip("\n") or "(the patch changes nothing)"
        syntax = Syntax(
            diff,
            "diff",
            theme=DARK_DIFF_THEME if self.app.current_theme.dark else LIGHT_DIFF_THEME,
            background_color=text.background_colors[1].hex,
            word_wrap=False,
        )
        text.update(syntax)

    def watch_conflict(self, sentence: str) -> None:
        error = self.query_one("#review-error", Static)
        error.update(Content(sentence))
        error.set_class(bool(sentence), "-shown")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``a`` is "Accept" before a failed accept and "Try again" after; ``c`` only after."""
        if action in ("retry", "report_conflict"):
            return bool(self.conflict)
        if action == "accept":
            return not self.conflict
        return True

    # ------------------------------------------------------------------ decisions

    def action_accept(self) -> None:
        """Accept the patch if it still applies; on a conflict or a failure keep the screen
        open with the reason. Nothing is written here: the resumed turn's review node applies
        the patch and records it in one step (see :func:`check_patch`)."""
        try:
            check_patch(self.project_root, self.patch)
        except PatchConflict as err:
            self.conflict = err.user_message
            return
        except (WeaverError, OSError) as err:
            reason = failure_reason(err)
            logger.warning("patch %s could not be applied: %s", self.patch.id, reason)
            self.conflict = f"Patch {self.patch.id} could not be applied: {reason}"
            return
        patch = self.patch
        said = f"You accepted patch {patch.id} for {patch.path}; it is applied as the turn goes on."
        self.dismiss(PatchDecision("accept", True, said))

    def action_retry(self) -> None:
        self.action_accept()

    def action_reject(self) -> None:
        reject_patch(self.patch)  # its sentence is for the model; the person gets their own
        patch = self.patch
        said = f"You rejected patch {patch.id} for {patch.path}; the file was not changed."
        self.dismiss(PatchDecision("reject", False, said))

    def action_report_conflict(self) -> None:
        if self.conflict:
            self.dismiss(PatchDecision("accept", False, self.conflict))

    def action_later(self) -> None:
        self.dismiss(PatchDecision("later", False, ""))
