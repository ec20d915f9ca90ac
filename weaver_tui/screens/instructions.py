"""Instructions for the conversation, typed or taken from a saved template.

``InstructionsScreen(current)`` edits them in a text area: Ctrl+S (or the Save button) keeps
them, an empty text clears them, Esc leaves them as they were; the callback gets the new text,
``""`` to clear, or ``None`` for no change. ``TemplatePickerScreen(templates)`` lists the
Markdown files of the config folder's ``templates/`` and gives back the chosen one's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, TextArea
from textual.widgets.option_list import Option

from storage.printable import printable

TEMPLATE_MAX_BYTES = 64 * 1024
"""A larger file in ``templates/`` is not offered (instructions are sent with every turn)."""


def template_files(config_dir: Path | None) -> list[Path]:
    """The ``templates/*.md`` files of the user's config folder, by name (regular files of a
    sane size only)."""
    if config_dir is None:
        return []
    folder = config_dir / "templates"
    try:
        candidates = sorted(folder.glob("*.md"))
    except OSError:
        return []
    found = []
    for path in candidates:
        try:
            if path.is_file() and path.stat().st_size <= TEMPLATE_MAX_BYTES:
                found.append(path)
        except OSError:
            continue
    return found


class InstructionsScreen(ModalScreen[str | None]):
    """Edit the conversation's instructions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save", priority=True),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | ctrl+s | Keep the instructions (an empty text clears them). |
    | escape | Leave them as they were. |
    """

    DEFAULT_CSS = """
    InstructionsScreen {
        align: center middle;
        background: $background 60%;
        & > #instructions-dialog {
            width: 90;
            max-width: 95%;
            height: auto;
            padding: 1 2;
            border: thick $primary 80%;
            background: $surface;
        }
        & TextArea { height: 10; }
        & #instructions-hint { color: $text-muted; margin: 1 0; }
        & #instructions-buttons { height: auto; align-horizontal: right; }
        & Button { margin-left: 2; }
    }
    """

    def __init__(self, current: str) -> None:
        super().__init__()
        # what is offered may be an imported file's instructions: shown (and kept) printable
        self.current = printable(current)

    def compose(self) -> ComposeResult:
        with Vertical(id="instructions-dialog"):
            yield Label("Instructions for this conversation")
            yield TextArea(self.current, id="instructions-text", soft_wrap=True)
            yield Label(
                "Added to the profile's system prompt on every turn of this conversation, "
                "e.g. 'Answer in French.' · Ctrl+S saves (empty clears) · Esc cancels",
                id="instructions-hint",
                markup=False,
            )
            with Horizontal(id="instructions-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save", variant="primary", id="save")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.move_cursor(area.document.end)
        area.focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class TemplatePickerScreen(ModalScreen[Path | None]):
    """The saved instruction templates; Enter picks one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Use the highlighted template. |
    | escape | Keep the instructions as they are. |
    """

    DEFAULT_CSS = """
    TemplatePickerScreen {
        align: center middle;
        background: $background 60%;
        & > #templates-dialog {
            width: 80;
            max-width: 95%;
            height: auto;
            max-height: 90%;
            padding: 0 1;
            border: thick $primary 80%;
            background: $surface;
        }
        & #templates-title { text-style: bold; margin: 1 0 0 0; }
        & OptionList { height: auto; max-height: 20; margin-bottom: 1; }
    }
    """

    def __init__(self, templates: list[Path]) -> None:
        super().__init__()
        self.templates = templates

    def compose(self) -> ComposeResult:
        with Vertical(id="templates-dialog"):
            yield Label("Instruction templates", id="templates-title", markup=False)
            yield OptionList(
                *(Option(self._line(path), id=str(i)) for i, path in enumerate(self.templates)),
                id="templates-list",
            )

    @staticmethod
    def _line(path: Path) -> Text:
        line = Text(path.stem)
        try:
            first = next(
                (x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()), ""
            )
        except (OSError, UnicodeDecodeError):
            first = ""
        if first:
            line.append(f"  {first.strip()[:70]}", style="dim")
        return line

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.templates[int(event.option.id or 0)])

    def action_cancel(self) -> None:
        self.dismiss(None)
