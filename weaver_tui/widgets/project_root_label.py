"""The ide-helper's one-line panel: which folder the tools work in, and what waits for review.

The ide-helper reads and proposes edits only inside its project root, so the root is always on
screen. Next to it: how many proposed patches wait for the user's decision (a review the user
closed with "decide later" stays pending). When one does, a click on the line posts
:class:`ProjectRootLabel.ReviewRequested` so the chat screen can open the review again.

When the root is a reopened conversation's own folder and not the one the app was started
in, the panel says so on a line of its own (``set_root(root, started_in=...)``): the tools work
in the root shown. The panel wraps rather than cut what it says on a narrow chat column, and
says nothing about patches until it knows (``pending=None``) rather than "none" first.

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
    """``Project ~/src/app · 1 patch waiting for review: F4 or a click opens it``."""

    DEFAULT_CSS = """
    ProjectRootLabel {
        height: auto;
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
        pending: int | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes, markup=False)
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

    def set_pending(self, count: int | None) -> None:
        """How many patches wait for a decision (``None``: not known yet, nothing said)."""
        self.pending = None if count is None else max(count, 0)
        self._show()

    def _pending_note(self) -> str:
        if self.pending is None:
            return ""
        if self.pending == 0:
            return "  ·  [dim]no patch waiting for review[/]"
        noun = "patch" if self.pending == 1 else "patches"
        return f"  ·  [$text-warning]$count {noun} waiting for review:[/] F4 or a click opens it"

    def _show(self) -> None:
        self.set_class(bool(self.pending), "-pending")
        elsewhere = ""
        if self.started_in is not None and not same_folder(self.root, self.started_in):
            elsewhere = (
                "\n[$text-warning]This is the conversation's root, not $here[/] "
                "[dim](Ctrl+N starts a conversation there)[/]"
            )
        self.update(
            Content.from_markup(
                f"[dim]Project[/] [b]$root[/]{self._pending_note()}{elsewhere}",
                root=printable(shown_root(self.root)),  # a folder's name is anyone's choice
                here=printable(shown_root(self.started_in)) if self.started_in else "",
                count=self.pending,
            )
        )

    def on_click(self, event: events.Click) -> None:
        if self.pending:
            event.stop()
            self.post_message(self.ReviewRequested(self))
