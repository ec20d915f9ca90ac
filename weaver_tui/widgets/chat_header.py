"""The chat header: which profile, which model, which conversation, where in its tree.

One line: the profile's name, the conversation title, the project folder (ide-helper), the
branch position ("branch 2/3 ·
depth 7": which of the tree's leaves the active path ends at, and how deep it is), a busy mark
while a reply streams, and the model badge. The offline model is always shown as "offline".
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Label

OFFLINE_PROVIDER = "offline"


def model_badge(provider: str, model: str) -> str:
    """``offline`` for the embedded model, else ``provider · model``."""
    if provider == OFFLINE_PROVIDER:
        return "offline"
    return f"{provider} · {model}" if model else provider


@dataclass(frozen=True, slots=True)
class BranchPosition:
    """Which leaf of the tree the active path ends at (1-based), of how many, and its depth."""

    index: int
    count: int
    depth: int

    def __str__(self) -> str:
        if self.count == 0:
            return "new"
        return f"branch {self.index}/{self.count} · depth {self.depth}"


class ChatHeader(Horizontal):
    """Profile, conversation title, branch position and model badge, on one line."""

    DEFAULT_CSS = """
    ChatHeader {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
        & > Label { padding: 0 1; height: 1; }
        & > #header-profile { background: $primary; color: $background; text-style: bold; }
        & > #header-title { width: 1fr; text-style: bold; }
        & > #header-branch { color: $text-muted; }
        & > #header-project { color: $text-muted; }
        & > #header-busy { color: $accent; }
        & > #header-model { background: $secondary; color: $background; }
        & > #header-model.-offline { background: $success; }
    }
    """

    profile: reactive[str] = reactive("")
    title: reactive[str] = reactive("New conversation")
    branch: reactive[BranchPosition] = reactive(BranchPosition(0, 0, 0))
    provider: reactive[str] = reactive(OFFLINE_PROVIDER)
    model: reactive[str] = reactive("")
    project: reactive[str] = reactive("")
    """The project folder's name (ide-helper works inside it), else empty."""
    busy: reactive[str] = reactive("")
    """A short state word while a reply runs ("replying", "cancelling"), else empty."""

    def compose(self) -> ComposeResult:
        yield Label(id="header-profile", markup=False)
        yield Label(id="header-title", markup=False)
        yield Label(id="header-project", markup=False)
        yield Label(id="header-busy", markup=False)
        yield Label(id="header-branch", markup=False)
        yield Label(id="header-model", markup=False)

    _ready = False

    def on_mount(self) -> None:
        self._ready = True
        self._watch_profile()
        self._watch_title()
        self._watch_branch()
        self._watch_busy()
        self._watch_project()
        self._watch_model()

    def _label(self, name: str) -> Label:
        return self.query_one(f"#header-{name}", Label)

    def _watch_profile(self) -> None:
        if self._ready:
            self._label("profile").update(self.profile)

    def _watch_title(self) -> None:
        if self._ready:
            self._label("title").update(self.title)

    def _watch_branch(self) -> None:
        if self._ready:
            self._label("branch").update(str(self.branch))

    def _watch_busy(self) -> None:
        if self._ready:
            label = self._label("busy")
            label.update(self.busy)
            label.display = bool(self.busy)

    def _watch_project(self) -> None:
        if self._ready:
            label = self._label("project")
            label.update(f"in {self.project}" if self.project else "")
            label.display = bool(self.project)

    def _watch_provider(self) -> None:
        self._watch_model()

    def _watch_model(self) -> None:
        if self._ready:
            label = self._label("model")
            label.update(model_badge(self.provider, self.model))
            label.set_class(self.provider == OFFLINE_PROVIDER, "-offline")

    @property
    def model_text(self) -> str:
        """The model badge as shown (tests read it)."""
        return model_badge(self.provider, self.model)
