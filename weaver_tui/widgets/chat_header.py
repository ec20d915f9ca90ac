"""The chat header: which profile, which model, which conversation, where in its tree.

One line: the profile's name, the conversation title, the project's AGENTS.md while the
conversation's turns send it (a click on it switches them off or on), the project folder (ide-helper), the
branch position ("branch 2/3 · depth 7": which of the tree's leaves the active path ends at,
and how deep it is), a busy mark while a reply streams, and the model badge. The offline model
is always shown as "offline".

When the line is too narrow for every field, the least important give way whole (see
:mod:`weaver_tui.widgets.header_fit`): no field is cut inside a word.

One widget draws the line from its reactives (a field each, styled by a component class), not
a row of labels: it is on the launch's first frame, where every widget costs its styling,
layout and render before the paint.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from storage.printable import printable
from weaver_tui.core.branch_position import OFFLINE_PROVIDER, BranchPosition, model_badge
from weaver_tui.widgets.header_fit import HeaderField, fit

TITLE = "header--title"
AGENTS_MD = "header--agents-md"
"""The AGENTS.md badge's component class (a click on it switches the instructions)."""
AGENTS_MD_OFF = "header--agents-md-off"
"""The title's component class: the field that takes the width the others leave."""


class ChatHeader(Widget):
    """Profile, conversation title, branch position and model badge, on one line."""

    COMPONENT_CLASSES = {  # noqa: RUF012 - Textual's own declaration style
        "header--profile",
        "header--title",
        "header--project",
        "header--instructions",
        AGENTS_MD,
        AGENTS_MD_OFF,
        "header--context",
        "header--context-warn",
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
        & > .header--instructions { color: $accent; }
        & > .header--agents-md { color: $accent; text-style: underline; }
        & > .header--agents-md-off { color: $text-muted; text-style: strike; }
        & > .header--context { color: $text-muted; }
        & > .header--context-warn { color: $warning; text-style: bold; }
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
    context: reactive[str] = reactive("")
    """About how many tokens the next turn sends, against the model's window ("3.2k/128k tok")."""
    context_warn: reactive[bool] = reactive(False)
    """The count is near the window: drawn as a warning."""
    instructions: reactive[bool] = reactive(False)
    """The conversation has instructions of its own (shown as a mark after the title)."""
    agents_md: reactive[str] = reactive("")
    """The project's instructions file this conversation's turns send (``AGENTS.md``,
    ``src/AGENTS.md``), else empty; shown as a badge that a click turns off or on."""
    agents_md_off: reactive[bool] = reactive(False)
    """The conversation turned the project's instructions off (the badge is struck out)."""
    imported: reactive[bool] = reactive(False)
    """The conversation came from an export file (its settings stayed behind: see
    :mod:`storage.import_meta`)."""
    busy: reactive[str] = reactive("")
    """A short state word while a reply runs ("replying", "cancelling"), else empty."""
    local_model: reactive[str] = reactive("")
    """A model served on this machine that the offline app could use ("ollama: llama3.2")."""

    # The title (an import's, a provider's words), the model (a server's list) and the project
    # folder's name come from outside: kept printable as they are set, so the line never
    # carries an escape sequence to the terminal.
    def validate_title(self, title: str) -> str:
        return printable(title)

    def validate_model(self, model: str) -> str:
        return printable(model)

    def validate_project(self, project: str) -> str:
        return printable(project)

    def validate_local_model(self, local_model: str) -> str:
        return printable(local_model)

    def validate_agents_md(self, agents_md: str) -> str:
        return printable(agents_md)

    @dataclass
    class AgentsMdClicked(Message):
        """The AGENTS.md badge was clicked: turn the project's instructions off or on."""

    def on_click(self, event: events.Click) -> None:
        """A click on the AGENTS.md badge asks to switch the project's instructions."""
        x = 0
        for text, style in self.shown():
            x += cell_len(text)
            if event.x < x:
                if style in (AGENTS_MD, AGENTS_MD_OFF):
                    event.stop()
                    self.post_message(self.AgentsMdClicked())
                return

    def fields(self) -> list[HeaderField]:
        """Each field that has something to show, left to right, with its shorter forms;
        the title takes the width the others leave."""
        fields = [
            HeaderField("profile", (self.profile,), "header--profile"),
            HeaderField("title", (self.title,), TITLE),
        ]
        if self.instructions:
            fields.append(
                HeaderField("instructions", ("✎ instructions", "✎"), "header--instructions")
            )
        if self.agents_md:
            shown = f"{self.agents_md} off" if self.agents_md_off else self.agents_md
            style = AGENTS_MD_OFF if self.agents_md_off else AGENTS_MD
            fields.append(HeaderField("agents_md", (shown,), style))
        if self.imported:
            fields.append(HeaderField("imported", ("⇣ imported", "⇣"), "header--project"))
        if self.project:
            fields.append(HeaderField("project", (f"in {self.project}",), "header--project"))
        if self.busy:
            fields.append(HeaderField("busy", (self.busy,), "header--busy"))
        if self.context:
            style = "header--context-warn" if self.context_warn else "header--context"
            fields.append(
                HeaderField("context", (self.context, self.context.removesuffix(" tok")), style)
            )
        if self.branch is not None:
            fields.append(HeaderField("branch", self.branch.forms(), "header--branch"))
        offline = self.provider == OFFLINE_PROVIDER
        badges = (self.model_text,) if offline or not self.model else (self.model_text, self.model)
        if offline and self.local_model:
            badges = ("offline · local model available (Ctrl+L)", "offline · local model", *badges)
        fields.append(
            HeaderField("model", badges, "header--offline" if offline else "header--model")
        )
        return fields

    def shown(self) -> list[tuple[str, str]]:
        """(text, component class) of each field drawn at the current width (tests read it)."""
        return fit(self.fields(), self.size.width)

    def render(self) -> Text:
        line = Text.assemble(
            *((text, self.get_component_rich_style(name)) for text, name in self.shown()),
            no_wrap=True,
            overflow="crop",
        )
        line.stylize_before(self.rich_style)
        return line

    @property
    def model_text(self) -> str:
        """The model badge as shown (tests read it)."""
        return model_badge(self.provider, self.model)
