"""Choose the provider and model for the next turns.

``app.push_screen(ModelPickerScreen("openai", "gpt-4.1-mini"), callback)``; the callback gets
``(provider, model)`` or ``None`` on Esc. ``presets`` may be passed as :class:`ModelChoice`
rows (plain data); by default they come from :func:`agents.providers.presets.list_presets`,
with a key counted as configured when its environment variable (or ``WEAVER_API_KEY``) is set.

Up/down picks a provider (its default model fills the model field, or the current model for
the current provider); the model field takes any name, with the provider's suggested models
offered as completions. Enter in the list moves to the field; Enter in the field applies.
Local servers the app found on 127.0.0.1 (``local``) come first, each with its models.
Below, the conversation's own temperature and max tokens (empty: the provider's default); they
are kept with the conversation, so the callback gets a :class:`PickedModel`.

Given ``roles`` (each role's current provider and model, empty: the turn's model), a "Model
for" selector on top picks what the choice is for: the turn (as above), or one role (its
``role`` is then set in the :class:`PickedModel`, and an empty model field means "back to the
turn's model"). Where a choice is kept is the caller's (the chat keeps a role's, like the
turn's, for the running app: :mod:`weaver_tui.core.role_choices`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from agents.providers.model_options import BadModelOption, ModelOptions
from storage.printable import printable
from weaver_tui.widgets.inline_bindings import OrderedInput

if TYPE_CHECKING:
    from agents.providers.local_servers import LocalServer


class PickedModel(NamedTuple):
    """What the picker gives back: the provider and model for the next turns, and the
    conversation's own options."""

    provider: str
    model: str
    options: ModelOptions = ModelOptions()
    base_url: str | None = None
    """The server's address for a local server the app found (else the preset's)."""
    role: str | None = None
    """The role the model is for (``None``: the turn); a role with an empty ``model`` goes
    back to the turn's model."""


TURN = "turn"
"""The "Model for" selector's value for the turn's own model."""


class ModelChoice(NamedTuple):
    """A provider preset as the picker shows it."""

    name: str
    title: str
    default_model: str
    suggested_models: tuple[str, ...] = ()
    needs_key: bool = False
    key_configured: bool = True
    key_variable: str | None = None
    """What to set when the key is missing (an environment variable or config key)."""
    base_url: str | None = None
    """Where a local server the app found answers (``None``: the preset's own address)."""
    provider: str | None = None
    """The preset that talks to it, when ``name`` only tells the rows apart."""


def local_choices(servers: Sequence[LocalServer]) -> list[ModelChoice]:
    """One row per local server found on 127.0.0.1, offering the models it lists."""
    return [
        ModelChoice(
            name=f"local:{server.name}",
            title=f"{server.name} on this machine (found)",
            default_model=server.models[0],
            suggested_models=server.models,
            base_url=server.base_url,
            provider=server.provider,
        )
        for server in servers
    ]


def preset_choices(current_provider: str | None = None) -> list[ModelChoice]:
    """The provider presets, with whether a switch to them would have a key.

    A preset's own variable (``DEEPSEEK_API_KEY`` ...) counts for it; the general
    ``WEAVER_API_KEY`` belongs to the configured provider only (switching elsewhere drops it,
    so a key never goes to a provider it was not given for), and the picker says so.
    """
    from agents.providers.presets import list_presets

    general_key = bool(os.environ.get("WEAVER_API_KEY"))
    return [
        ModelChoice(
            name=p.name,
            title=p.title,
            default_model=p.default_model,
            suggested_models=tuple(p.suggested_models),
            needs_key=p.needs_key,
            key_configured=not p.needs_key
            or bool(p.key_env and os.environ.get(p.key_env))
            or (general_key and p.name == current_provider),
            key_variable=p.key_env or "WEAVER_API_KEY",
        )
        for p in list_presets()
    ]


class ModelPickerScreen(ModalScreen[PickedModel | None]):
    """Providers on top, the model name below, this conversation's options last; dismisses
    with a :class:`PickedModel`."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """
    | Key(s) | Description |
    | :- | :- |
    | up / down | Pick a provider. |
    | enter | In the list: go to the model field. In a field: apply. |
    | tab | Move between the list and the fields. |
    | escape | Keep the current model. |
    """

    DEFAULT_CSS = """
    ModelPickerScreen {
        align: center middle;
        background: $background 60%;
        & > #model-dialog {
            width: 84;
            max-width: 95%;
            height: auto;
            max-height: 95%;
            border: thick $primary 80%;
            background: $surface;
            padding: 0 1;
        }
        & .model-heading { text-style: bold; padding: 0 1; }
        & OptionList { height: auto; max-height: 12; border: none; }
        & #model-suggestions, #model-hint { color: $text-muted; padding: 0 1; }
        & #model-options { height: auto; }
        & #model-options Input { width: 1fr; }
        & #model-options Label { padding: 1 1 0 1; }
        & #model-hint.-error { color: $error; }
    }
    """

    def __init__(
        self,
        current_provider: str,
        current_model: str,
        presets: Sequence[ModelChoice] | None = None,
        options: ModelOptions | None = None,
        local: Sequence[ModelChoice] = (),
        roles: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        super().__init__()
        self.current_provider = current_provider
        self.current_model = current_model
        self.turn_current = (current_provider, current_model)
        self.roles = dict(roles or {})
        """Each role's current (provider, model); ``("", "")``: the turn's model."""
        self.options = options or ModelOptions()
        listed = preset_choices(current_provider) if presets is None else presets
        self.presets = [*local, *listed]

    def compose(self) -> ComposeResult:
        with Vertical(id="model-dialog"):
            if self.roles:
                yield Label("Model for", classes="model-heading")
                yield Select(
                    [("the turn (every reply)", TURN)]
                    + [(self._role_title(role), role) for role in self.roles],
                    value=TURN,
                    allow_blank=False,
                    id="role-select",
                )
            yield Label("Provider", classes="model-heading")
            yield OptionList(*self._options(), id="provider-list")
            yield Label("Model", classes="model-heading")
            yield OrderedInput(placeholder="model name", id="model-input")
            yield Label("", id="model-suggestions", markup=False)
            yield Label("This conversation", classes="model-heading")
            with Horizontal(id="model-options"):
                yield Label("temperature")
                yield OrderedInput(
                    _shown(self.options.temperature), placeholder="default", id="temperature-input"
                )
                yield Label("max tokens")
                yield OrderedInput(
                    _shown(self.options.max_tokens), placeholder="default", id="max-tokens-input"
                )
            yield Label(
                "Enter applies from the next turn · Esc cancels", id="model-hint", markup=False
            )

    def _options(self) -> list[Option]:
        options = []
        for preset in self.presets:
            current = preset.name == self.current_provider
            if preset.base_url:
                key = Text(f"{preset.base_url} · no key needed", "green")
            elif not preset.needs_key:
                key = Text("no key needed", "dim")
            elif preset.key_configured:
                key = Text("key set", "green")
            else:
                key = Text(f"needs {preset.key_variable}", "yellow")
            prompt = Text.assemble(
                ("● " if current else "  ", "bold"),
                (preset.title, "bold"),
                (f"  {preset.name}  ", "dim"),
                key,
            )
            options.append(Option(prompt, id=preset.name))
        return options

    def _role_title(self, role: str) -> str:
        provider, model = self.roles[role]
        now = f"{provider} · {model}" if model else "the turn's model"
        return printable(f"the {role} role (now: {now})")

    @property
    def _role(self) -> str | None:
        if not self.roles:
            return None
        value = self.query_one("#role-select", Select).value
        return value if isinstance(value, str) and value != TURN else None

    @on(Select.Changed, "#role-select")
    def _role_changed(self, event: Select.Changed) -> None:
        event.stop()
        role = self._role
        provider, model = self.roles[role] if role else self.turn_current
        if role and not model:
            provider = self.turn_current[0]
        self.current_provider, self.current_model = provider, model
        names = [preset.name for preset in self.presets]
        index = names.index(provider) if provider in names else 0
        self._provider_list.clear_options()
        self._provider_list.add_options(self._options())
        self._provider_list.highlighted = index
        self._show_preset(index)
        hint = self.query_one("#model-hint", Label)
        if role:
            hint.update(f"Enter sets the {role} role's model · an empty model: the turn's")
        else:
            hint.update("Enter applies from the next turn · Esc cancels")

    @property
    def _provider_list(self) -> OptionList:
        return self.query_one("#provider-list", OptionList)

    @property
    def _model_input(self) -> Input:
        return self.query_one("#model-input", Input)

    def on_mount(self) -> None:
        names = [preset.name for preset in self.presets]
        index = names.index(self.current_provider) if self.current_provider in names else 0
        self._provider_list.highlighted = index
        self._show_preset(index)
        self._provider_list.focus()

    def _show_preset(self, index: int | None) -> None:
        if index is None or not self.presets:
            return
        preset = self.presets[index]
        field = self._model_input
        current = preset.name == self.current_provider and self.current_model
        field.value = current or preset.default_model
        field.suggester = SuggestFromList(preset.suggested_models, case_sensitive=False)
        suggestions = ", ".join(preset.suggested_models)
        label = f"Suggested: {suggestions}" if suggestions else "Any model name the server knows"
        self.query_one("#model-suggestions", Label).update(printable(label))

    @on(OptionList.OptionHighlighted, "#provider-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_preset(event.option_index)

    @on(OptionList.OptionSelected, "#provider-list")
    def _provider_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._model_input.focus()

    @on(Input.Submitted)
    def _model_chosen(self, event: Input.Submitted) -> None:
        event.stop()
        index = self._provider_list.highlighted
        if index is None:
            return
        preset = self.presets[index]
        try:
            options = ModelOptions.parse(
                self.query_one("#temperature-input", Input).value,
                self.query_one("#max-tokens-input", Input).value,
            )
        except BadModelOption as exc:
            hint = self.query_one("#model-hint", Label)
            hint.update(str(exc))
            hint.add_class("-error")
            return
        role = self._role
        model = self._model_input.value.strip() or ("" if role else preset.default_model)
        provider = preset.provider or preset.name
        self.dismiss(PickedModel(provider, model, options, preset.base_url, role))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _shown(value: float | int | None) -> str:
    return "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


ModelPicker = ModelPickerScreen
"""The name the chat screen imports."""
