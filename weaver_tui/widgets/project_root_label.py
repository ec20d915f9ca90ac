"""The ide-helper's one-line panel: which folder the tools work in, and what waits for review.

The ide-helper reads and proposes edits only inside its project root, so the root is always on
screen. Next to it: how many proposed patches wait for the user's decision (a review the user
closed with "decide later" stays pending). When one does, a click on the line posts
:class:`ProjectRootLabel.ReviewRequested` so the chat screen can open the review again.

When the root is a reopened conversation's own folder and not the one the app was started
in, the line says so (``set_root(root, started_in=...)``): the tools work in the root shown.

API: ``ProjectRootLabel(root, pending=0)``, :meth:`ProjectRootLabel.set_pending`,
:meth:`ProjectRootLabel.set_root`.
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from storage.printable import printable


def shown_root(root: Path) -> str:
    """The root as a person reads it: the home folder written ``~``."""
    try:
        return "~/" + root.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(root)


def same_folder(one: Path, other: Path) -> bool:
    """Whether two paths name the same folder (after resolving links and ``..``)."""
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return one == other


class ProjectRootLabel(Static):
    """``Project ~/src/app · 1 patch waiting for review (click to review)``."""

    DEFAULT_CSS = """
    ProjectRootLabel {
        height: 1;
        width: 1fr;
        padding: 0 1;
        background: $surface;
        color: $text-muted;
        &.-pending { color: $text; }
        &.-pending:hover { background: $boost; }
    }
    """

    class ReviewRequested(Message):
        """The user clicked the line while a patch waits for review."""

        def __init__(self, label: ProjectRootLabel) -> None:
            super().__init__()
            self.label = label

        @property
        def control(self) -> ProjectRootLabel:
            return self.label

    def __init__(
        self,
        root: Path,
        pending: int = 0,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.root = root
        self.pending = pending
        self.started_in: Path | None = None

    def on_mount(self) -> None:
        self._show()

    def set_root(self, root: Path, *, started_in: Path | None = None) -> None:
        """Show ``root``; with ``started_in`` (the app's folder) a note when they differ."""
        self.root = root
        self.started_in = started_in
        if self.is_mounted:
            self._show()

    def set_pending(self, count: int) -> None:
        """How many patches wait for a decision (0 hides the note)."""
        self.pending = max(count, 0)
        self._show()

    def _show(self) -> None:
        self.set_class(self.pending > 0, "-pending")
        if self.pending == 0:
            note = "[dim]no patch waiting for review[/]"
        else:
            noun = "patch" if self.pending == 1 else "patches"
            note = f"[$text-warning]$count {noun} waiting for review[/] [dim](click to review)[/]"
        elsewhere = ""
        if self.started_in is not None and not same_folder(self.root, self.started_in):
            elsewhere = "  ·  [$text-warning]this conversation's root, not $here[/]"
        self.update(
            Content.from_markup(
                f"[dim]Project[/] [b]$root[/]  ·  {note}{elsewhere}",
                root=printable(shown_root(self.root)),  # a folder's name is anyone's choice
                here=printable(shown_root(self.started_in)) if self.started_in else "",
                count=self.pending,
            )
        )

    def on_click(self, event: events.Click) -> None:
        if self.pending > 0:
            event.stop()
            self.post_message(self.ReviewRequested(self))
