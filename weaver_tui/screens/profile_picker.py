"""Choose the agent profile: every registered profile, one line each about what it is for.

``app.push_screen(ProfilePickerScreen(current=name), callback)`` (or pass
``profiles=[(name, title, description), ...]``; by default the registry in
:mod:`agents.profile_registry` is read). The callback gets the chosen profile name, or ``None`` on Esc.
A conversation belongs to one profile: the chat screen decides whether to open or start one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class ProfileChoice(NamedTuple):
    """A profile as the picker shows it."""

    name: str
    title: str
    description: str


def registered_profiles() -> list[ProfileChoice]:
    """The profiles whose traits load from :mod:`agents.profile_registry`, in registry order (read from
    their traits: opening the picker imports no profile's graph)."""
    from agents.profile_registry import list_traits

    return [ProfileChoice(name, t.title, t.description) for name, t in list_traits()]


class ProfilePickerScreen(ModalScreen[str | None]):
    """A list of profiles; Enter picks the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down | Move between profiles. |
    | enter | Switch to the highlighted profile. |
    | escape | Keep the current profile. |
    """

    DEFAULT_CSS = """
    ProfilePickerScreen {
        align: center middle;
        background: $background 60%;
        & > #profile-dialog {
            width: 80;
            max-width: 95%;
            height: auto;
            max-height: 90%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
        & #profile-title { text-style: bold; padding: 0 1; }
        & OptionList { height: auto; max-height: 20; border: none; }
    }
    """

    def __init__(
        self,
        current: str | None = None,
        profiles: Sequence[ProfileChoice | tuple[str, str, str]] | None = None,
    ) -> None:
        super().__init__()
        self.current = current
        chosen = registered_profiles() if profiles is None else profiles
        self.profiles = [ProfileChoice(*profile) for profile in chosen]

    def compose(self) -> ComposeResult:
        with Vertical(id="profile-dialog"):
            yield Label("Switch profile", id="profile-title", markup=False)
            yield OptionList(*self._options(), id="profile-list")

    def _options(self) -> list[Option]:
        options = []
        for profile in self.profiles:
            mark = "●" if profile.name == self.current else " "
            prompt = Text.assemble(
                (f"{mark} ", "bold"),
                (profile.title or profile.name, "bold"),
                (f"  {profile.name}\n", "dim"),
                ("  " + " ".join(profile.description.split()), "dim"),
            )
            options.append(Option(prompt, id=profile.name))
        return options

    def on_mount(self) -> None:
        option_list = self.query_one(OptionList)
        names = [profile.name for profile in self.profiles]
        if self.current in names:
            option_list.highlighted = names.index(self.current)
        option_list.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


ProfilePicker = ProfilePickerScreen
"""The name the chat screen imports."""
