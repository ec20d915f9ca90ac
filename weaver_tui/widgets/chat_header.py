"""The chat header: which profile, which model, which conversation, where in its tree.

One line: the profile's name, the conversation title, the project folder (ide-helper), the
branch position ("branch 2/3 · depth 7": which of the tree's leaves the active path ends at,
and how deep it is), a busy mark while a reply streams, and the model badge. The offline model
is always shown as "offline".

One widget draws the line from its reactives (a field each, styled by a component class), not
a row of labels: it is on the launch's first frame, where every widget costs its styling,
layout and render before the paint.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

OFFLINE_PROVIDER = "offline"
TITLE = "header--title"
"""The title's component class: the field that takes the width the others leave."""


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


class ChatHeader(Widget):
    """Profile, conversation title, branch position and model badge, on one line."""

    COMPONENT_CLASSES = {  # noqa: RUF012 - Textual's own declaration style
        "header--profile",
        "header--title",
        "header--project",
        "header--busy",
        "header--branch",
        "header--model",
        "header--offline",
    }

    DEFAULT_CSS = """
    ChatHeader {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
        & > .header--profile { background: $primary; color: $background; text-style: bold; }
        & > .header--title { text-style: bold; }
        & > .header--branch { color: $text-muted; }
        & > .header--project { color: $text-muted; }
        & > .header--busy { color: $accent; }
        & > .header--model { background: $secondary; color: $background; }
        & > .header--offline { background: $success; color: $background; }
    }
    """

    profile: reactive[str] = reactive("")
    title: reactive[str] = reactive("New conversation")
    branch: reactive[BranchPosition | None] = reactive(BranchPosition(0, 0, 0))
    """Where the active path ends; ``None`` hides it (the launch skeleton knows no branch)."""
    provider: reactive[str] = reactive(OFFLINE_PROVIDER)
    model: reactive[str] = reactive("")
    project: reactive[str] = reactive("")
    """The project folder's name (ide-helper works inside it), else empty."""
    busy: reactive[str] = reactive("")
    """A short state word while a reply runs ("replying", "cancelling"), else empty."""

    def fields(self) -> list[tuple[str, str]]:
        """(text, component class) of each field shown, left to right; empty optional fields
        are left out. The title takes the width the others leave."""
        fields = [(self.profile, "header--profile"), (self.title, TITLE)]
        if self.project:
            fields.append((f"in {self.project}", "header--project"))
        if self.busy:
            fields.append((self.busy, "header--busy"))
        if self.branch is not None:
            fields.append((str(self.branch), "header--branch"))
        offline = self.provider == OFFLINE_PROVIDER
        fields.append((self.model_text, "header--offline" if offline else "header--model"))
        return fields

    def render(self) -> Text:
        fields = self.fields()
        others = sum(cell_len(text) + 2 for text, name in fields if name != TITLE)
        room = max(self.size.width - others, 0)
        title = f" {set_cell_size(self.title, room - 2)} " if room > 2 else " " * room
        line = Text.assemble(
            *(
                (title if name == TITLE else f" {text} ", self.get_component_rich_style(name))
                for text, name in fields
            ),
            no_wrap=True,
            overflow="crop",
        )
        line.stylize_before(self.rich_style)
        return line

    @property
    def model_text(self) -> str:
        """The model badge as shown (tests read it)."""
        return model_badge(self.provider, self.model)
